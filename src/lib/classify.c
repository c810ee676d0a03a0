/* Classifying staged files by content, then by path. */
#include "classify.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsutil.h"
#include "strbuf.h"
#include "xalloc.h"

static const char *const class_names[PP_CLASS_NR] = {
	[PP_CLASS_DIR] = "empty directory",
	[PP_CLASS_SHLIB] = "shared library",
	[PP_CLASS_SHLIB_LINK] = "shared library link",
	[PP_CLASS_DEV_LINK] = "development link",
	[PP_CLASS_EXEC] = "ELF program",
	[PP_CLASS_MODULE] = "ELF module",
	[PP_CLASS_OBJECT] = "ELF object",
	[PP_CLASS_STATIC] = "static library",
	[PP_CLASS_LIBTOOL] = "libtool archive",
	[PP_CLASS_HEADER] = "header",
	[PP_CLASS_PKGCONFIG] = "pkg-config file",
	[PP_CLASS_CMAKE] = "CMake file",
	[PP_CLASS_PYTHON] = "Python module",
	[PP_CLASS_MAN] = "manual page",
	[PP_CLASS_DOC] = "documentation",
	[PP_CLASS_SCRIPT] = "script",
	[PP_CLASS_SYMLINK] = "symbolic link",
	[PP_CLASS_DATA] = "data",
};

const char *pp_class_name(enum pp_file_class cls)
{
	return cls < PP_CLASS_NR ? class_names[cls] : "?";
}

static int matches(const char *path, const char *const *globs)
{
	for (; *globs; globs++)
		if (!fnmatch(*globs, path, 0))
			return 1;
	return 0;
}

int pp_is_public_libdir(const char *dir)
{
	static const char *const dirs[] = {
		"lib", "usr/lib", "lib/*-linux-gnu*", "usr/lib/*-linux-gnu*",
		"lib32", "lib64", "usr/lib32", "usr/lib64", NULL,
	};

	for (const char *const *d = dirs; *d; d++)
		if (!fnmatch(*d, dir, FNM_PATHNAME))
			return 1;
	return 0;
}

char *pp_python_top_module(const char *path)
{
	static const char *const roots[] = {
		"usr/lib/python3/dist-packages/",
		"usr/lib/python3/site-packages/", NULL,
	};

	for (const char *const *r = roots; *r; r++) {
		size_t n = strlen(*r);
		const char *rest = path + n, *end;

		if (strncmp(path, *r, n))
			continue;
		end = rest + strcspn(rest, "/.");
		if (end == rest)
			return NULL;
		return xstrndup(rest, (size_t)(end - rest));
	}
	return NULL;
}

static int is_python_path(const char *path)
{
	char *top = pp_python_top_module(path);

	free(top);
	return top != NULL;
}

/* A libtool archive: a .la file whose first line is libtool's comment. */
static int is_libtool(const char *path, const unsigned char *head, size_t n)
{
	size_t len = strlen(path);

	return len > 3 && !strcmp(path + len - 3, ".la") && n >= 9 &&
	       !memcmp(head, "# ", 2) && memmem(head, n, "libtool", 7);
}

/* A CMake file outside a cmake/ directory: a .cmake file anywhere under
 * usr/lib or usr/share, where find_package looks in config mode
 * (lib/ARCH/NAME-ANYTHING, lib/NAME-ANYTHING, share/NAME-ANYTHING and
 * below): openjpeg2's usr/lib/TRIPLET/openjpeg-2.5/OpenJPEGConfig.cmake. */
static int is_cmake_elsewhere(const char *path)
{
	size_t len = strlen(path);

	return len > 6 && !strcmp(path + len - 6, ".cmake") &&
	       (!strncmp(path, "usr/lib/", 8) ||
		!strncmp(path, "usr/share/", 10));
}

/* text with its C comments blanked out. */
static char *uncommented(const char *text)
{
	char *s = xstrdup(text), *p = s, *end;

	while ((p = strstr(p, "/*"))) {
		end = strstr(p + 2, "*/");
		end = end ? end + 2 : p + strlen(p);
		memset(p, ' ', (size_t)(end - p));
		p = end;
	}
	return s;
}

/* The next word of an ld script at *p (a name, "(", ")" or ","), copied
 * into word; 0 at the end. */
static int ld_word(const char **p, char *word, size_t size)
{
	const char *s = *p;
	size_t n = 0;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return 0;
	if (strchr("(),", *s)) {
		n = 1;
	} else {
		while (s[n] && !isspace((unsigned char)s[n]) && !strchr("(),", s[n]))
			n++;
	}
	snprintf(word, size, "%.*s", (int)(n < size ? n : size - 1), s);
	*p = s + n;
	return 1;
}

int pp_ld_script_inputs(const char *text, struct pp_strlist *out)
{
	static const char *const commands[] = { "INPUT", "GROUP", "AS_NEEDED",
		"OUTPUT_FORMAT", "OUTPUT_ARCH", "SEARCH_DIR", "TARGET", NULL };
	char *s = uncommented(text), word[PATH_MAX];
	const char *p = s, *const *c;
	int depth = 0, inputs = 0, ok = 1, taking = 0;

	while (ok && ld_word(&p, word, sizeof(word))) {
		if (!strcmp(word, "(")) {
			depth++;
		} else if (!strcmp(word, ")")) {
			ok = depth-- > 0;
			taking = taking && depth > 0;
		} else if (!strcmp(word, ",")) {
			continue;
		} else if (taking && strcmp(word, "AS_NEEDED")) {
			pp_strlist_push(out, word);
		} else if (depth == 0 || taking) {
			for (c = commands; *c && strcmp(*c, word); c++)
				;
			ok = *c != NULL;
			if (ok && depth == 0 && (!strcmp(word, "INPUT") ||
						 !strcmp(word, "GROUP")))
				taking = inputs = 1;
		}
	}
	free(s);
	return ok && depth == 0 && inputs;
}

/* The class of a plain file that is not ELF, by path and first bytes. */
static enum pp_file_class by_path(const char *path, const struct stat *st,
				  const unsigned char *head, size_t n)
{
	static const char *const cmake[] = {
		"usr/lib/cmake/*", "usr/lib/*/cmake/*", "usr/share/cmake/*",
		"usr/share/cmake-*/*", "usr/share/*/cmake/*", NULL,
	};
	static const char *const pkgconfig[] = {
		"usr/lib/pkgconfig/*.pc", "usr/lib/*/pkgconfig/*.pc",
		"usr/share/pkgconfig/*.pc", NULL,
	};
	static const char *const doc[] = {
		"usr/share/doc/*", "usr/share/info/*", "usr/share/gtk-doc/*",
		NULL,
	};

	if (n >= 8 && !memcmp(head, "!<arch>\n", 8))
		return PP_CLASS_STATIC;
	if (is_libtool(path, head, n))
		return PP_CLASS_LIBTOOL;
	if (!strncmp(path, "usr/include/", 12))
		return PP_CLASS_HEADER;
	if (matches(path, pkgconfig))
		return PP_CLASS_PKGCONFIG;
	if (matches(path, cmake))
		return PP_CLASS_CMAKE;
	if (!strncmp(path, "usr/share/man/", 14))
		return PP_CLASS_MAN;
	if (matches(path, doc))
		return PP_CLASS_DOC;
	if (is_python_path(path))
		return PP_CLASS_PYTHON;
	if (is_cmake_elsewhere(path))
		return PP_CLASS_CMAKE;
	if ((st->st_mode & 0111) && n >= 2 && head[0] == '#' && head[1] == '!')
		return PP_CLASS_SCRIPT;
	return PP_CLASS_DATA;
}

static int read_head(const char *file, unsigned char *buf, size_t len,
		     size_t *got, struct pp_err *err)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot read '%s'", file);
	n = pp_read_full(fd, buf, len);
	close(fd);
	if (n < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot read '%s'", file);
	*got = (size_t)n;
	return 0;
}

static enum pp_file_class elf_class(const struct pp_elf_info *elf)
{
	switch (elf->kind) {
	case PP_ELF_SHLIB: return PP_CLASS_SHLIB;
	case PP_ELF_EXEC: return PP_CLASS_EXEC;
	case PP_ELF_MODULE: return PP_CLASS_MODULE;
	case PP_ELF_OBJECT: return PP_CLASS_OBJECT;
	default: return PP_CLASS_DATA;
	}
}

/* The SONAME of the stage's shared library an ld script names (a path,
 * or a name beside the script), or NULL. */
static char *ld_script_soname(const char *stage, const char *path,
			      const struct pp_strlist *inputs)
{
	const char *slash = strrchr(path, '/');
	struct strbuf full = STRBUF_INIT;
	struct pp_elf_info elf;
	struct pp_err ignored;
	char *soname = NULL;

	for (size_t i = 0; !soname && i < inputs->nr; i++) {
		const char *in = inputs->items[i];

		if (in[0] == '-')
			continue;
		strbuf_reset(&full);
		if (in[0] == '/')
			strbuf_addf(&full, "%s%s", stage, in);
		else
			strbuf_addf(&full, "%s/%.*s/%s", stage,
				    (int)(slash ? slash - path : 0), path, in);
		pp_err_init(&ignored);
		if (pp_elf_read(full.buf, &elf, &ignored) == 0) {
			if (elf.kind == PP_ELF_SHLIB && elf.soname)
				soname = xstrdup(elf.soname);
			pp_elf_release(&elf);
		}
		pp_err_release(&ignored);
	}
	strbuf_release(&full);
	return soname;
}

/* libNAME.so that is a GNU ld script, in a public library directory: a
 * file only ld reads, for -lNAME (the dynamic linker never loads it):
 * what a .so link is, for the library it names. */
static void classify_ld_script(const char *stage, const char *full,
			       const char *path, const struct stat *st,
			       struct pp_classified *out)
{
	const char *base = strrchr(path, '/');
	struct pp_strlist inputs = PP_STRLIST_INIT;
	struct strbuf text = STRBUF_INIT;
	struct pp_err ignored;
	size_t n;

	if (!base || st->st_size > 65536)
		return;
	n = strlen(++base);
	if (strncmp(base, "lib", 3) || n < 7 || strcmp(base + n - 3, ".so"))
		return;
	strbuf_add(&text, path, (size_t)(base - 1 - path));
	if (pp_is_public_libdir(text.buf)) {
		strbuf_reset(&text);
		pp_err_init(&ignored);
		if (pp_read_file(full, &text, &ignored) == 0 &&
		    pp_ld_script_inputs(text.buf, &inputs)) {
			out->cls = PP_CLASS_DEV_LINK;
			out->ld_script = 1;
			out->soname = ld_script_soname(stage, path, &inputs);
		}
		pp_err_release(&ignored);
	}
	pp_strlist_release(&inputs);
	strbuf_release(&text);
}

static int classify_file(const char *stage, const char *full,
			 const char *path, const struct stat *st,
			 struct pp_classified *out, struct pp_err *err)
{
	unsigned char head[512];
	size_t n = 0;
	int rc;

	if (read_head(full, head, sizeof(head), &n, err) < 0)
		return -1;
	if (!pp_elf_magic(head, n)) {
		out->cls = by_path(path, st, head, n);
		if (out->cls == PP_CLASS_DATA)
			classify_ld_script(stage, full, path, st, out);
		return 0;
	}
	out->elf = xcalloc(1, sizeof(*out->elf));
	rc = pp_elf_read(full, out->elf, err);
	if (rc < 0)
		return -1;
	if (rc > 0) { /* ELF magic, but not an ELF file libelf reads */
		free(out->elf);
		out->elf = NULL;
		out->cls = by_path(path, st, head, n);
		return 0;
	}
	out->cls = elf_class(out->elf);
	/* an extension module, even one libtool gave a SONAME (libxml2mod) */
	if ((out->cls == PP_CLASS_MODULE || out->cls == PP_CLASS_SHLIB) &&
	    is_python_path(path))
		out->cls = PP_CLASS_PYTHON;
	if (out->elf->soname)
		out->soname = xstrdup(out->elf->soname);
	return 0;
}

/* dir/rel made canonical (no ".", ".." or empty components); NULL when
 * it climbs above the stage's root. */
static char *join_normal(const char *dir, const char *rel)
{
	struct pp_strlist names = PP_STRLIST_INIT;
	char *out = NULL;

	if (!pp_path_names(dir, 0, &names) && !pp_path_names(rel, 0, &names))
		out = pp_strlist_join(&names, "/");
	pp_strlist_release(&names);
	return out;
}

/* Resolves a link inside the stage: the staged path it reaches (following
 * further links), or NULL when it leaves the stage, loops or reaches
 * nothing. An absolute target is taken relative to the stage's root. */
static char *resolve_in_stage(const char *stage, const char *path,
			      const char *target)
{
	char *cur = xstrdup(path), *t = xstrdup(target), *dir, *next;
	struct strbuf full = STRBUF_INIT;
	char buf[PATH_MAX];
	ssize_t n;

	for (int hops = 0; hops < 16; hops++) {
		dir = *t == '/' ? xstrdup("") : pp_dirname(cur);
		next = join_normal(strcmp(dir, ".") ? dir : "", t);
		free(dir);
		free(t);
		t = NULL;
		free(cur);
		cur = next;
		if (!cur)
			break;
		strbuf_reset(&full);
		strbuf_addf(&full, "%s/%s", stage, cur);
		n = readlink(full.buf, buf, sizeof(buf) - 1);
		if (n < 0) {
			if (errno != EINVAL)
				break; /* dangling */
			strbuf_release(&full);
			return cur;
		}
		buf[n] = '\0';
		t = xstrdup(buf);
	}
	free(cur);
	free(t);
	strbuf_release(&full);
	return NULL;
}

/* Whether a link named NAME reaches (at FULL) a libtool archive. */
static int libtool_link(const char *name, const char *full)
{
	unsigned char head[512];
	size_t n = 0;
	struct pp_err ignored;
	int yes;

	pp_err_init(&ignored);
	yes = read_head(full, head, sizeof(head), &n, &ignored) == 0 &&
	      is_libtool(name, head, n) && is_libtool(full, head, n);
	pp_err_release(&ignored);
	return yes;
}

/* A link named BASE reaching a regular file (FULL) of the stage: a
 * link to a shared library, by the SONAME of what it reaches. */
static void classify_elf_link(const char *base, const char *full,
			      struct pp_classified *out)
{
	struct pp_elf_info elf;
	struct pp_err damaged; /* a damaged target is judged on its own */

	pp_err_init(&damaged);
	if (pp_elf_read(full, &elf, &damaged) == 0) {
		if (elf.soname) {
			size_t n = strlen(elf.soname);

			out->soname = xstrdup(elf.soname);
			if (!strncmp(base, elf.soname, n) &&
			    (!base[n] || base[n] == '.'))
				out->cls = PP_CLASS_SHLIB_LINK;
			else if (strlen(base) > 3 &&
				 !strcmp(base + strlen(base) - 3, ".so"))
				out->cls = PP_CLASS_DEV_LINK;
		}
		pp_elf_release(&elf);
	}
	pp_err_release(&damaged);
}

static void classify_link(const char *stage, const char *path,
			  const char *link_target, struct pp_classified *out)
{
	const char *base = strrchr(path, '/');
	struct strbuf full = STRBUF_INIT;
	struct stat st;

	base = base ? base + 1 : path;
	out->cls = PP_CLASS_SYMLINK;
	out->target = resolve_in_stage(stage, path, link_target);
	if (!out->target)
		return;
	strbuf_addf(&full, "%s/%s", stage, out->target);
	if (lstat(full.buf, &st) == 0 && S_ISREG(st.st_mode)) {
		/* libpng.la -> libpng16.la: a libtool archive too, dropped
		 * with it (Debian's rules delete every *.la, links too) */
		if (libtool_link(base, full.buf))
			out->cls = PP_CLASS_LIBTOOL;
		else
			classify_elf_link(base, full.buf, out);
	}
	strbuf_release(&full);
}

int pp_classify(const char *stage, const char *path, const struct stat *st,
		const char *link_target, struct pp_classified *out,
		struct pp_err *err)
{
	struct strbuf full = STRBUF_INIT;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (S_ISDIR(st->st_mode)) {
		out->cls = PP_CLASS_DIR;
		return 0;
	}
	if (S_ISLNK(st->st_mode)) {
		classify_link(stage, path, link_target, out);
		return 0;
	}
	if (!S_ISREG(st->st_mode)) {
		out->cls = PP_CLASS_DATA;
		return 0;
	}
	strbuf_addf(&full, "%s/%s", stage, path);
	rc = classify_file(stage, full.buf, path, st, out, err);
	strbuf_release(&full);
	if (rc < 0)
		pp_classified_release(out);
	return rc;
}

void pp_classified_release(struct pp_classified *c)
{
	if (c->elf) {
		pp_elf_release(c->elf);
		free(c->elf);
	}
	free(c->soname);
	free(c->target);
	memset(c, 0, sizeof(*c));
}
