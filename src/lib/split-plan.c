/* padpack split, planning: read the stage trees, classify, find the files
 * every variant shares, assign each file to a package (split-assign.c).
 * Writes nothing.
 * Layer: the top of the plan; calls down into split-assign.c. */
#include "split-plan.h"

#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control.h"
#include "fsutil.h"
#include "hash.h"
#include "progress.h"
#include "shlibs.h"
#include "splitint.h"
#include "tree.h"
#include "workpool.h"
#include "xalloc.h"

char *pp_split_debian_version(const char *upstream, const char *revision)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = pp_version_release_len(upstream);

	/* X.Y.Z then a pre-release (rc2, -beta, .alpha1): "~" in place of
	 * its separator, so that it sorts before X.Y.Z (1.0-beta would sort
	 * after 1.0, and apt would not upgrade to the release); any other
	 * upstream version (1.4.2+ds, 2.1.12-stable) is kept as is */
	if (n) {
		const char *rest = upstream + n;

		strbuf_add(&sb, upstream, n);
		strbuf_addf(&sb, "~%s", rest + (strchr("-._", *rest) ? 1 : 0));
	} else {
		strbuf_addstr(&sb, upstream);
	}
	strbuf_addf(&sb, "-%s", revision);
	return strbuf_detach(&sb, NULL);
}

/* ---- reading the stages ----------------------------------------------- */

struct dir_ref {
	const char *path;
	size_t index;
};

static int cmp_dir_ref(const void *a, const void *b)
{
	return strcmp(((const struct dir_ref *)a)->path,
		      ((const struct dir_ref *)b)->path);
}

/* Marks in nonempty[] the directories of t that hold anything. */
static void find_nonempty_dirs(const struct pp_tree *t, unsigned char *nonempty)
{
	struct dir_ref *dirs = xcalloc(t->nr + 1, sizeof(*dirs));
	size_t nr = 0;

	for (size_t i = 0; i < t->nr; i++)
		if (S_ISDIR(t->e[i].st.st_mode)) {
			dirs[nr].path = t->e[i].path;
			dirs[nr++].index = i;
		}
	qsort(dirs, nr, sizeof(*dirs), cmp_dir_ref);
	for (size_t i = 0; i < t->nr; i++) {
		char *parent = pp_dirname(t->e[i].path);
		struct dir_ref key = { strcmp(parent, ".") ? parent : "", 0 };
		const struct dir_ref *hit = *t->e[i].path ?
			bsearch(&key, dirs, nr, sizeof(*dirs), cmp_dir_ref) : NULL;

		if (hit)
			nonempty[hit->index] = 1;
		free(parent);
	}
	free(dirs);
}

/* An unversioned python interpreter line, which dh_python3 rewrites to
 * /usr/bin/python3 (Debian has no /usr/bin/python). */
int pp_split_python_shebang(const char *head)
{
	static const char *const lines[] = { "#!/usr/bin/python",
					     "#!/usr/bin/env python" };

	for (size_t i = 0; i < 2; i++) {
		size_t n = strlen(lines[i]);

		if (!strncmp(head, lines[i], n) &&
		    (head[n] == '\n' || head[n] == ' ' || head[n] == '\t' ||
		     head[n] == '\r' || !head[n]))
			return 1;
	}
	return 0;
}

static int read_head(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	buf[0] = 0;
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	return 0;
}

/* A manual page of no bytes (upstream writes pages with a tool the build
 * did not run): lintian's empty-manual-page; never shipped. */
static int is_empty_man_page(const struct pp_tree_entry *e)
{
	return S_ISREG(e->st.st_mode) && e->st.st_size == 0 &&
	       !strncmp(e->path, "usr/share/man/", 14);
}

/* An empty directory of the file system's own layout (usr/bin, usr/lib,
 * usr/include ...), which install rules create whether or not they put
 * anything there: shipped, it would be a package of nothing (an empty
 * usr/bin made an empty program package) or lintian's
 * package-contains-empty-directory; dh_install ships none either. Other
 * empty directories (var/lib/NAME) are a package's own and are kept. */
static int is_empty_standard_dir(const struct pp_tree_entry *e)
{
	static const char *const dirs[] = {
		"bin", "sbin", "lib", "lib64", "etc", "usr", "usr/bin",
		"usr/sbin", "usr/games", "usr/lib", "usr/lib64", "usr/libexec",
		"usr/lib/*-linux-gnu*", "usr/lib/*-linux-gnu*/pkgconfig",
		"usr/lib/*-linux-gnu*/cmake", "usr/lib/pkgconfig",
		"usr/lib/cmake", "usr/include", "usr/include/*-linux-gnu*",
		"usr/share", "usr/share/doc", "usr/share/info",
		"usr/share/locale", "usr/share/man", "usr/share/man/man*",
		"usr/share/pkgconfig", NULL,
	};

	for (const char *const *d = dirs; S_ISDIR(e->st.st_mode) && *d; d++)
		if (!fnmatch(*d, e->path, FNM_PATHNAME))
			return 1;
	return 0;
}

static int add_file(struct pp_split_stage *st, const struct pp_tree_entry *e,
		    struct pp_err *err)
{
	struct pp_split_file *f;

	if (!S_ISREG(e->st.st_mode) && !S_ISDIR(e->st.st_mode) &&
	    !S_ISLNK(e->st.st_mode))
		return pp_err_set(err, PP_EXIT_INPUT, "%s/%s: a device, FIFO or "
				  "socket; a package cannot ship one (create it "
				  "in a maintainer script)", st->dir, e->path);
	ARRAY_GROW(st->files, st->alloc, st->nr + 1);
	f = &st->files[st->nr++];
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(e->path);
	f->st = e->st;
	f->link = e->link_target ? xstrdup(e->link_target) : NULL;
	f->pkg = -1;
	return 0;
}

/* What a file's bytes say: its class (and ELF data), its SHA-256, a
 * script's #! line. */
static int inspect_file(void *ctx, size_t i, struct pp_err *err)
{
	struct pp_split_stage *st = ctx;
	struct pp_split_file *f = &st->files[i];
	struct strbuf full = STRBUF_INIT;
	int rc = 0;

	if (pp_classify(st->dir, f->path, &f->st, f->link, &f->c, err) < 0)
		return -1;
	if (S_ISREG(f->st.st_mode)) {
		char head[64];

		strbuf_addf(&full, "%s/%s", st->dir, f->path);
		rc = pp_split_hash_file(full.buf, PP_SHA256, f->sum, err);
		/* a script among the documents is shipped 0644, as
		 * dh_fixperms does: no interpreter to depend on */
		if (rc == 0 && f->c.cls != PP_CLASS_SHLIB && !f->c.elf &&
		    f->c.cls != PP_CLASS_DOC &&
		    !read_head(full.buf, head, sizeof(head)))
			f->python_shebang = pp_split_python_shebang(head);
		strbuf_release(&full);
	}
	return rc;
}

/* Every file of the stage inspected on THREADS threads, the largest
 * first; the first error is that of the first file in the tree. */
static int inspect_files(struct pp_split_stage *st, int threads,
			 struct pp_err *err)
{
	uint64_t *sizes = xcalloc(st->nr + 1, sizeof(*sizes));
	size_t *order;
	int rc;

	for (size_t i = 0; i < st->nr; i++)
		sizes[i] = S_ISREG(st->files[i].st.st_mode) ?
			   (uint64_t)st->files[i].st.st_size : 0;
	order = pp_split_largest_first(sizes, st->nr);
	rc = pp_pool_run(st->nr, order, threads > 0 ? (size_t)threads : 1,
			 inspect_file, st, err);
	free(sizes);
	free(order);
	return rc;
}

static int read_stage(struct pp_split_stage *st, int threads,
		      struct pp_err *err)
{
	struct pp_tree t = { 0 };
	unsigned char *nonempty;
	int rc = 0;

	if (pp_tree_walk(st->dir, NULL, &t, err) < 0)
		return -1;
	nonempty = xcalloc(t.nr + 1, 1);
	find_nonempty_dirs(&t, nonempty);
	for (size_t i = 0; i < t.nr && !rc; i++) {
		if (!*t.e[i].path || (S_ISDIR(t.e[i].st.st_mode) && nonempty[i]))
			continue; /* the root, and directories with content */
		if (is_empty_standard_dir(&t.e[i])) {
			pp_warn(err, "padpack split: %s/%s: an empty directory "
				"of the system's layout; not shipped", st->dir,
				t.e[i].path);
			continue;
		}
		if (is_empty_man_page(&t.e[i])) {
			pp_warn(err, "padpack split: %s/%s: an empty manual page; "
				"not shipped (build the page, or remove it)",
				st->dir, t.e[i].path);
			continue;
		}
		rc = add_file(st, &t.e[i], err);
	}
	if (!rc)
		rc = inspect_files(st, threads, err);
	if (!rc)
		pp_split_index_stage(st);
	free(nonempty);
	pp_tree_release(&t);
	return rc;
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A glibc-hwcaps build left out by --variant while its baseline is in:
 * the package then lacks that level, which deserves a word. */
static void unselected_hwcaps(const struct pp_split *s,
			      const struct pp_variant *v, struct pp_err *err)
{
	const struct pp_variant *base = pp_spec_hwcaps_base(s->spec, v);

	if (base && base != v &&
	    s->opts.selected[base - s->spec->variants])
		pp_warn(err, "padpack split: %s, a glibc-hwcaps build of %s, is "
			"not selected: %s's packages carry no build of its "
			"level", v->name, base->name, base->name);
}

static int carry_hwcaps(struct pp_split *s, struct pp_strlist *higher,
			struct pp_err *err)
{
	int rc = 0;

	for (size_t i = 0; i < higher->nr && !rc; i++) {
		struct pp_split_stage st = { 0 };

		char *tab = strchr(higher->items[i], '\t'); /* NAME\tDIR */

		st.dir = xstrdup(tab + 1);
		*tab = 0;
		st.variant = pp_spec_find_variant(s->spec, higher->items[i]);
		rc = read_stage(&st, s->opts.comp.threads, err);
		if (!rc)
			rc = pp_split_hwcaps_carry(s, &st, err);
		for (size_t j = 0; j < st.nr; j++)
			pp_split_file_release(&st.files[j]);
		free(st.files);
		free(st.by_path);
		free(st.dir);
	}
	return rc;
}

static int load_stages(struct pp_split *s, struct pp_err *err)
{
	const struct pp_spec *spec = s->spec;
	struct pp_strlist missing = PP_STRLIST_INIT, higher = PP_STRLIST_INIT;
	int rc;

	s->stages = xcalloc(spec->nr_variants + 1, sizeof(*s->stages));
	for (size_t i = 0; i < spec->nr_variants; i++) {
		struct pp_split_stage *st = &s->stages[s->nr_stages];
		struct strbuf dir = STRBUF_INIT;

		if (s->opts.selected && !s->opts.selected[i]) {
			unselected_hwcaps(s, &spec->variants[i], err);
			continue;
		}
		if (s->opts.stage_dir && s->nr_stages) {
			pp_strlist_release(&missing);
			return pp_err_set(err, PP_EXIT_INPUT, "%s has %zu "
					  "variants; one staged tree (--stage) "
					  "is one of them: choose it with "
					  "--variant", spec->path,
					  spec->nr_variants);
		}
		if (s->opts.stage_dir)
			strbuf_addstr(&dir, s->opts.stage_dir);
		else
			strbuf_addf(&dir, "%s/%s/stage", s->opts.build_dir,
				    spec->variants[i].name);
		if (!is_dir(dir.buf)) {
			pp_strlist_push(&missing, dir.buf);
			strbuf_release(&dir);
			continue;
		}
		if (pp_spec_hwcaps_higher(spec, &spec->variants[i])) {
			pp_strlist_pushf(&higher, "%s\t%s",
					 spec->variants[i].name, dir.buf);
			strbuf_release(&dir);
			continue;
		}
		st->variant = &spec->variants[i];
		st->dir = strbuf_detach(&dir, NULL);
		s->nr_stages++;
		if (read_stage(st, s->opts.comp.threads, err) < 0) {
			pp_strlist_release(&missing);
			pp_strlist_release(&higher);
			return -1;
		}
	}
	rc = carry_hwcaps(s, &higher, err);
	pp_strlist_release(&higher);
	if (rc < 0) {
		pp_strlist_release(&missing);
		return -1;
	}
	if (missing.nr && (s->opts.explicit_selection || !s->nr_stages)) {
		char *all = pp_strlist_join(&missing, ", ");

		pp_err_set(err, PP_EXIT_INPUT, "no stage tree %s; run 'padpack "
			   "build' first (with -B if the build went elsewhere)",
			   all);
		free(all);
		pp_strlist_release(&missing);
		return -1;
	}
	for (size_t i = 0; i < missing.nr; i++)
		pp_warn(err, "padpack split: %s is missing (the variant was not "
			"built here); its packages are left out",
			missing.items[i]);
	pp_strlist_release(&missing);
	return 0;
}

/* The architecture of the run: that of its ELF files, which must agree. */
static int find_arch(struct pp_split *s, struct pp_err *err)
{
	const char *where = NULL;

	for (size_t i = 0; i < s->nr_stages; i++)
		for (size_t j = 0; j < s->stages[i].nr; j++) {
			const struct pp_split_file *f = &s->stages[i].files[j];
			const char *a;

			/* machine 0: not code of a machine (Guile's .go) */
			if (!f->c.elf || f->c.cls == PP_CLASS_OBJECT ||
			    !f->c.elf->machine)
				continue;
			a = pp_elf_debian_arch(f->c.elf);
			if (!a)
				return pp_err_set(err, PP_EXIT_INPUT, "%s/%s: ELF "
						  "machine %u is not one padpack "
						  "knows a Debian architecture "
						  "of", s->stages[i].dir, f->path,
						  f->c.elf->machine);
			if (!s->arch) {
				s->arch = xstrdup(a);
				s->triplet = xstrdup(pp_elf_multiarch(f->c.elf));
				where = f->path;
			} else if (strcmp(s->arch, a)) {
				return pp_err_set(err, PP_EXIT_INPUT, "%s/%s is "
						  "built for %s but %s for %s; "
						  "one run packages one "
						  "architecture", s->stages[i].dir,
						  f->path, a, where, s->arch);
			}
		}
	if (!s->arch) {
		s->arch = xstrdup("amd64"); /* nothing built for a machine */
		s->triplet = xstrdup("x86_64-linux-gnu");
	}
	return 0;
}

/* ---- the plan --------------------------------------------------------- */

static int spec_file(const struct pp_spec *spec, const char *setting,
		     const char *path, int want_dir, struct pp_err *err)
{
	struct stat st;

	if (!path || (stat(path, &st) == 0 && !S_ISDIR(st.st_mode) == !want_dir))
		return 0;
	return pp_err_set(err, PP_EXIT_INPUT, "%s: setting '%s': '%s' is not "
			  "%s; paths are relative to the spec's directory",
			  spec->path, setting, path, want_dir ? "a directory" :
			  "a file");
}

/* The files the spec names, which only split reads. */
static int check_spec_files(const struct pp_spec *spec, struct pp_err *err)
{
	static const char *const names[PP_NR_SCRIPTS] = {
		"preinst", "postinst", "prerm", "postrm",
	};

	if (spec_file(spec, "packages.copyright", spec->copyright, 0, err) ||
	    spec_file(spec, "packages.changelog", spec->changelog, 0, err) ||
	    spec_file(spec, "packages.templates", spec->templates, 1, err))
		return -1;
	for (size_t i = 0; i < spec->nr_control; i++)
		for (int k = 0; k < PP_NR_SCRIPTS; k++) {
			char setting[64];

			snprintf(setting, sizeof(setting),
				 "packages.control[%zu].%s", i, names[k]);
			if (spec_file(spec, setting, spec->control[i].scripts[k],
				      0, err) < 0)
				return -1;
		}
	return 0;
}

static int has_notice(const struct pp_split_stage *st,
		      const struct pp_split_file *f)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct pp_err ignored;
	int found = 0;

	pp_err_init(&ignored);
	strbuf_addf(&path, "%s/%s", st->dir, f->path);
	if (pp_read_file(path.buf, &text, &ignored) == 0)
		found = pp_split_has_copyright_notice(text.buf);
	pp_err_release(&ignored);
	strbuf_release(&path);
	strbuf_release(&text);
	return found;
}

/* The license file of the stage: the first with a copyright notice
 * (pcre2's COPYING only points to LICENCE), else the first; or NULL. */
static const struct pp_split_file *license_file(const struct pp_split_stage *st)
{
	const struct pp_split_file *first = NULL;

	for (size_t i = 0; i < st->nr; i++) {
		const struct pp_split_file *f = &st->files[st->by_path[i]];

		if (!S_ISREG(f->st.st_mode) || !pp_split_is_license_path(f->path))
			continue;
		if (has_notice(st, f))
			return f;
		if (!first)
			first = f;
	}
	return first;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A license file in the working directory, the source tree a staged tree
 * is usually split from (COPYING, LICENSE ...): the first with a
 * copyright notice, else the first, in name order; NULL if none. */
static char *license_in_cwd(void)
{
	DIR *d = opendir(".");
	struct pp_strlist names = PP_STRLIST_INIT;
	struct dirent *e;
	char *found = NULL;

	while (d && (e = readdir(d))) {
		struct strbuf path = STRBUF_INIT;
		struct stat st;

		strbuf_addf(&path, "usr/share/doc/x/%s", e->d_name);
		if (pp_split_is_license_path(path.buf) &&
		    stat(e->d_name, &st) == 0 && S_ISREG(st.st_mode))
			pp_strlist_push(&names, e->d_name);
		strbuf_release(&path);
	}
	if (d)
		closedir(d);
	if (names.nr > 1)
		qsort(names.items, names.nr, sizeof(*names.items), cmp_str);
	for (int pass = 0; pass < 2 && !found; pass++)
		for (size_t i = 0; i < names.nr && !found; i++) {
			struct strbuf text = STRBUF_INIT;
			struct pp_err ignored;

			pp_err_init(&ignored);
			if (pp_read_file(names.items[i], &text, &ignored) == 0 &&
			    (pass || pp_split_has_copyright_notice(text.buf)))
				found = xstrdup(names.items[i]);
			pp_err_release(&ignored);
			strbuf_release(&text);
		}
	pp_strlist_release(&names);
	return found;
}

/* The copyright file: the spec's, else one made from the license file
 * the stage ships, else from one in the working directory, else one that
 * says the license is not known (with a warning): a default is never an
 * error. */
static int find_copyright(struct pp_split *s, struct pp_err *err)
{
	const struct pp_split_stage *st = &s->stages[0];
	struct strbuf text = STRBUF_INIT, out = STRBUF_INIT, path = STRBUF_INIT;
	const struct pp_split_file *f;
	char *cwd_file = NULL;
	int rc = 0;

	if (s->spec->copyright) {
		if (pp_read_file(s->spec->copyright, &text, err) < 0)
			return -1;
		s->copyright = strbuf_detach(&text, NULL);
		return 0;
	}
	f = license_file(st);
	if (f)
		strbuf_addf(&path, "%s/%s", st->dir, f->path);
	else if ((cwd_file = license_in_cwd()))
		strbuf_addstr(&path, cwd_file);
	if (path.len) {
		rc = pp_read_file(path.buf, &text, err);
		if (rc == 0)
			pp_split_dep5(s->spec->name, s->spec->homepage,
				      f ? f->path : cwd_file, text.buf, &out);
	} else {
		pp_warn(err, "padpack split: no license file in the staged tree "
			"(usr/share/doc/*/COPYING, LICENSE ...) nor here: each "
			"package's copyright says the license is not known; give "
			"a DEP-5 file as packages.copyright (or --copyright FILE)");
		pp_split_dep5_unknown(s->spec->name, s->spec->homepage, &out);
	}
	if (rc == 0)
		s->copyright = strbuf_detach(&out, NULL);
	free(cwd_file);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&out);
	return rc;
}

int pp_split_check_packages(const struct pp_split *s, struct pp_err *err)
{
	size_t files = 0;

	if (s->nr_pkgs)
		return 0;
	for (size_t k = 0; k < s->nr_stages; k++)
		for (size_t i = 0; i < s->stages[k].nr; i++)
			files += !S_ISDIR(s->stages[k].files[i].st.st_mode);
	return pp_err_set(err, PP_EXIT_INPUT, "nothing to package: %s%s "
			  "holds %s; stage the files first (make install "
			  "DESTDIR=%s)%s", s->nr_stages ? s->stages[0].dir :
			  "the stage tree", s->nr_stages > 1 ? " (and the "
			  "other variants' trees)" : "", files ? "only files "
			  "padpack drops (--explain says why)" : "no file",
			  s->nr_stages ? s->stages[0].dir : "DIR",
			  files ? ", or send them to a package with a files rule" : "");
}

int pp_split_plan(struct pp_split *s, const struct pp_spec *spec,
		  const struct pp_split_opts *opts, struct pp_err *err)
{
	enum pp_version_origin origin;
	int rc;

	memset(s, 0, sizeof(*s));
	s->spec = spec;
	s->opts = *opts;
	if (check_spec_files(spec, err) < 0)
		return -1;
	if (pp_spec_version(spec, spec->source, &s->upstream, &origin, err) < 0)
		return -1;
	s->version = pp_split_debian_version(s->upstream,
					     spec->revision ? spec->revision : "1");
	if (spec->epoch) {
		struct strbuf v = STRBUF_INIT;

		strbuf_addf(&v, "%ld:%s", spec->epoch, s->version);
		free(s->version);
		s->version = strbuf_detach(&v, NULL);
	}
	pp_progress_task(opts->progress, "reading the stage trees", 0, "files");
	rc = load_stages(s, err);
	if (!rc)
		rc = find_copyright(s, err);
	if (!rc)
		rc = find_arch(s, err);
	pp_progress_task(opts->progress, "assigning files to packages", 0,
			 "files");
	if (!rc)
		rc = pp_split_assign(s, err);
	if (!rc)
		rc = pp_split_alternatives(s, err);
	if (!rc)
		rc = pp_split_isa_scan(s, err);
	return rc;
}

void pp_split_release(struct pp_split *s)
{
	for (size_t k = 0; k < s->nr_stages; k++) {
		struct pp_split_stage *st = &s->stages[k];

		for (size_t i = 0; i < st->nr; i++)
			pp_split_file_release(&st->files[i]);
		free(st->files);
		free(st->by_path);
		free(st->dir);
	}
	free(s->stages);
	for (size_t i = 0; i < s->nr_pkgs; i++) {
		struct pp_split_pkg *p = &s->pkgs[i];

		free(p->name);
		free(p->base);
		free(p->files);
		pp_strlist_release(&p->build_ids);
		free(p->isa);
		free(p->isa_flags);
		free(p->isa_names);
		free(p->isa_alternative);
		free(p->isa_guard);
		free(p->alt_install);
		free(p->alt_remove);
		free(p->alt_names);
		pp_strlist_release(&p->alt_provides);
		pp_strlist_release(&p->alt_dirs);
		free(p->deb);
		free(p->synopsis);
		free(p->section);
		free(p->priority);
	}
	free(s->pkgs);
	pp_strlist_release(&s->written);
	free(s->copyright);
	free(s->upstream);
	free(s->version);
	free(s->arch);
	free(s->triplet);
	memset(s, 0, sizeof(*s));
}

/* ---- --explain -------------------------------------------------------- */

static void explain_file(const struct pp_split *s, size_t k,
			 const struct pp_split_file *f, struct strbuf *out)
{
	const char *where = f->shared && s->spec->nr_variants > 1 ? "(all)" :
			    s->stages[k].variant->name;

	strbuf_addf(out, "%-10s %s%s\n", where, f->path,
		    S_ISDIR(f->st.st_mode) ? "/" : "");
	strbuf_addf(out, "           %s -> %s\n", f->c.ld_script ?
		    "GNU ld script" : pp_class_name(f->c.cls),
		    f->pkg >= 0 ? s->pkgs[f->pkg].name : "(dropped)");
	strbuf_addf(out, "           rule: %s\n", f->rule ? f->rule : "?");
	if (f->python_shebang)
		strbuf_addstr(out, "           its unversioned python \"#!\" line "
			      "becomes #!/usr/bin/python3 (dh_python3; Debian has "
			      "no /usr/bin/python), and its package depends on "
			      "python3:any\n");
	if (f->pkg >= 0 && pp_split_default_runpath(f))
		strbuf_addstr(out, "           its run path names only the "
			      "linker's default directories: dropped (chrpath "
			      "-d, as Debian's rules do; lintian: "
			      "custom-library-search-path)\n");
	if (f->pkg >= 0) {
		char *dest = pp_split_dest_path(s, (size_t)f->pkg, f);

		if (strcmp(dest, f->path))
			strbuf_addf(out, "           shipped as %s: a pkg-config "
				    "file of an arch-dependent package goes to the "
				    "multiarch directory, as Debian's\n", dest);
		free(dest);
	}
	pp_split_isa_explain(f, out);
}

/* The packages of the run a package's ELF files need, as dpkg-shlibdeps
 * finds them: the package shipping a public library of that SONAME. */
static void explain_needed(const struct pp_split *s, size_t pkg,
			   struct pp_strlist *seen, struct strbuf *out)
{
	const struct pp_split_pkg *p = &s->pkgs[pkg];

	for (size_t i = 0; i < p->nr_files; i++) {
		const struct pp_split_file *f = pp_split_at(s, p->files[i]);
		const struct pp_split_stage *st = &s->stages[p->files[i].stage];

		for (size_t k = 0; f->c.elf && k < f->c.elf->needed.nr; k++)
			for (size_t j = 0; j < st->nr; j++) {
				const struct pp_split_file *g = &st->files[j];
				const struct pp_split_pkg *q;

				if (g->c.cls != PP_CLASS_SHLIB || g->pkg < 0 ||
				    (size_t)g->pkg == pkg || !g->c.soname ||
				    strcmp(g->c.soname, f->c.elf->needed.items[k]))
					continue;
				q = &s->pkgs[g->pkg];
				if (pp_strlist_find(seen, q->name) >= 0)
					continue;
				pp_strlist_push(seen, q->name);
				strbuf_addf(out, "  %s -> %s (>= %.*s): NEEDED %s, "
					    "shipped by %s; the upstream version, "
					    "as its shlibs says and "
					    "dpkg-shlibdeps copies it (a program "
					    "works with a newer build of its "
					    "library)\n", p->name, q->variant &&
					    !p->variant ? q->base : q->name,
					    (int)(strrchr(s->version, '-') -
						  s->version), s->version,
					    g->c.soname, q->name);
			}
	}
}

/* What a -dev package needs of other projects' -dev packages, and why. */
static void explain_dev_depends(const struct pp_split *s, size_t pkg,
				struct strbuf *out)
{
	struct pp_strlist rel = PP_STRLIST_INIT, why = PP_STRLIST_INIT;
	struct pp_err err;

	pp_err_init(&err);
	if (pp_split_dev_depends(s, pkg, &rel, &why, &err) < 0)
		strbuf_addf(out, "  %s: its -dev Depends not resolved: %s\n",
			    s->pkgs[pkg].name, err.msg);
	for (size_t k = 0; k < rel.nr; k++)
		strbuf_addf(out, "  %s -> %s: %s (a -dev package needs what "
			    "its .pc files require, its headers include and its ld "
			    "scripts name)\n",
			    s->pkgs[pkg].name, rel.items[k], why.items[k]);
	pp_err_release(&err);
	pp_strlist_release(&rel);
	pp_strlist_release(&why);
}

static void explain_relations(const struct pp_split *s, struct strbuf *out)
{
	strbuf_addstr(out, "relations between them:\n");
	for (size_t i = 0; i < s->nr_pkgs; i++) {
		struct pp_strlist rel = PP_STRLIST_INIT, why = PP_STRLIST_INIT,
				  seen = PP_STRLIST_INIT;

		explain_needed(s, i, &seen, out);
		pp_split_run_relations(s, i, &rel, &why);
		for (size_t k = 0; k < rel.nr; k++)
			strbuf_addf(out, "  %s -> %s: %s\n", s->pkgs[i].name,
				    rel.items[k], why.items[k]);
		if (s->pkgs[i].role == PP_ROLE_DEV)
			explain_dev_depends(s, i, out);
		pp_strlist_release(&rel);
		pp_strlist_release(&why);
		pp_strlist_release(&seen);
	}
}

void pp_split_explain(const struct pp_split *s, struct strbuf *out)
{
	size_t files = 0;

	for (size_t k = 0; k < s->nr_stages; k++)
		for (size_t i = 0; i < s->stages[k].nr; i++) {
			const struct pp_split_file *f = &s->stages[k].files[i];

			if (f->shared && k > 0)
				continue;
			explain_file(s, k, f, out);
			files++;
		}
	strbuf_addf(out, "%zu files of %zu variants in %zu packages:\n", files,
		    s->nr_stages, s->nr_pkgs);
	for (size_t i = 0; i < s->nr_pkgs; i++) {
		const struct pp_split_pkg *p = &s->pkgs[i];

		strbuf_addf(out, "  %-28s %-8s %-7s %s\n", p->name,
			    pp_role_name(p->role), p->arch_all ? "all" : s->arch,
			    p->common ? "files the same in every variant" :
			    p->variant ? p->variant->name : "every variant");
	}
	explain_relations(s, out);
	pp_split_alt_explain(s, out);
}
