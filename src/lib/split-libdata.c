/* padpack split, a library's data: the staged files a shared library
 * names in its read-only strings (/usr/share/alsa/alsa.conf, read by
 * libasound.so.2), which must be in its package or in one it depends on.
 * Layer: below split-assign.c (which moves such files) and
 * split-relations.c (which makes the library depend on their package);
 * above split-stage.c and split-alt.c. */
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "splitint.h"
#include "xalloc.h"

/* Directories many packages fill: a string naming one ties nothing below
 * it (an exact file in one still is tied). */
static const char *const shared_dirs[] = {
	"share/applications", "share/icons", "share/pixmaps", "share/mime",
	"share/fonts", "share/themes", "share/sounds", "share/xml",
	"share/sgml", "share/bash-completion", "share/zsh", "share/fish",
	"share/dbus-1", "share/polkit-1", "share/glib-2.0", "share/metainfo",
	"share/appdata", "share/help", "share/misc", "share/X11",
	"share/common-licenses", "share/lintian", "share/thumbnailers",
	"share/gtk-doc", "share/cmake", "share/aclocal", "share/pkgconfig",
	"share/gir-1.0", "share/vala", "etc/xdg", "etc/default",
	"etc/profile.d", "etc/init.d", "etc/systemd", "etc/dbus-1",
	"etc/ld.so.conf.d", "etc/security", "etc/pam.d", "etc/logrotate.d",
	"etc/cron.d", "etc/sysctl.d", "etc/udev", "etc/modprobe.d",
	"etc/apparmor.d", "etc/bash_completion.d", "lib/systemd", "lib/udev",
	"lib/tmpfiles.d", "lib/sysusers.d", NULL,
};

/* What the documentation rules place, never tied. */
static const char *const doc_dirs[] = {
	"share/doc", "share/man", "share/info", "share/locale", NULL,
};

static int under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (!path[n] || path[n] == '/');
}

/* The path less a leading usr/local/ or usr/: "share/alsa", "etc/foo". */
static const char *below_usr(const char *rel)
{
	if (!strncmp(rel, "usr/local/", 10))
		return rel + 10;
	if (!strncmp(rel, "usr/", 4))
		return rel + 4;
	return rel;
}

static size_t components(const char *p)
{
	size_t n = *p != 0;

	for (; *p; p++)
		n += *p == '/';
	return n;
}

int pp_split_string_names(const char *string, const char *path,
			  const char *libdir)
{
	const char *rel = string + 1, *tail;
	size_t n = strlen(rel);
	char *dir;
	int own;

	if (string[0] != '/' || !n || strncmp(path, rel, n) ||
	    (path[n] && path[n] != '/'))
		return 0;
	tail = below_usr(rel);
	for (const char *const *d = doc_dirs; *d; d++)
		if (under(below_usr(path), *d))
			return 0;
	if (under(libdir, rel))
		return 0; /* the library's own directory, or one above it */
	dir = pp_dirname(path);
	own = !strcmp(dir, libdir);
	free(dir);
	if (own)
		return 0; /* beside the library: its links, other libraries */
	if (!path[n])
		return 1; /* the very file */
	if (components(tail) < 2 || (!strncmp(tail, "var/", 4) &&
				     components(tail) < 3))
		return 0; /* usr/share, etc, var/lib: everyone's */
	for (const char *const *d = shared_dirs; *d; d++)
		if (!strcmp(tail, *d))
			return 0;
	return 1;
}

/* A file a library may read as data: a regular file, no ELF (a plugin is
 * optional, as Debian's libasound2 does not depend on
 * libasound2-plugin-smixer), nothing for building. */
static int data_file(const struct pp_split_file *f)
{
	return S_ISREG(f->st.st_mode) && f->c.cls == PP_CLASS_DATA &&
	       !f->c.elf && !pp_split_is_dev_path(f->path);
}

/* The first index of st->by_path whose path is prefix or under it. */
static size_t first_from(const struct pp_split_stage *st, const char *prefix)
{
	size_t lo = 0, hi = st->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(st->files[st->by_path[mid]].path, prefix) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void pp_split_library_reads(const struct pp_split *s,
			    const struct pp_split_stage *st,
			    const struct pp_split_file *lib,
			    pp_split_read_fn *fn, void *ctx)
{
	char *libdir;

	if (lib->c.cls != PP_CLASS_SHLIB || !lib->c.elf)
		return;
	libdir = pp_dirname(lib->path);
	for (size_t k = 0; k < lib->c.elf->paths.nr; k++) {
		const char *str = lib->c.elf->paths.items[k];
		size_t n = strlen(str + 1);

		if (pp_split_public_libdir(s, str + 1))
			continue;
		for (size_t i = first_from(st, str + 1); i < st->nr; i++) {
			size_t at = st->by_path[i];
			const struct pp_split_file *f = &st->files[at];

			if (strncmp(f->path, str + 1, n))
				break;
			if (data_file(f) && pp_split_string_names(str, f->path,
								  libdir))
				fn(at, str, ctx);
		}
	}
	free(libdir);
}
