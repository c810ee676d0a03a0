/* The steps of each build system (build.system) for one variant: CMake,
 * a plain Makefile, autotools, meson, or the spec's own commands. Each
 * builds out of the source tree (a plain Makefile in a copy of it),
 * installs with DESTDIR into the variant's stage, and says what identifies
 * its configuration, so a second run sets up nothing that did not change. */
#include "buildint.h"

#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proc.h"
#include "xalloc.h"

const char *pp_build_source_seen(const struct pp_build *b)
{
	if (!b->image)
		return b->source;
	return b->spec->image.mount ? b->spec->image.mount : "/paddle";
}

const char *pp_system_source_file(enum pp_build_kind kind, const char **hint)
{
	switch (kind) {
	case PP_BUILD_CMAKE:
		*hint = "padpack build drives CMake projects; set build.system "
			"for another kind";
		return "CMakeLists.txt";
	case PP_BUILD_MAKE:
		*hint = "build.system is \"make\"";
		return "Makefile";
	case PP_BUILD_AUTOTOOLS:
		*hint = "build.system is \"autotools\": run autoreconf -fi "
			"there first (padpack builds out of the source tree and "
			"never writes into it)";
		return "configure";
	case PP_BUILD_MESON:
		*hint = "build.system is \"meson\"";
		return "meson.build";
	case PP_BUILD_COMMANDS:
		break;
	}
	*hint = NULL;
	return NULL;
}

/* The build directory's path in the source tree ("build"), when it is
 * inside it; else NULL. */
static const char *build_dir_inside(const struct pp_build *b)
{
	size_t len = strlen(b->source);

	if (strncmp(b->build_dir, b->source, len) || b->build_dir[len] != '/')
		return NULL;
	return b->build_dir + len + 1;
}

/* DT_DIR, DT_REG ... of a directory entry, where readdir does not say. */
static int entry_type(DIR *d, const struct dirent *de)
{
	struct stat st;

	if (de->d_type != DT_UNKNOWN)
		return de->d_type;
	if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return DT_UNKNOWN;
	return S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG :
	       DT_UNKNOWN;
}

/* Whether rel (relative to the source) is an object file (*.o, *.lo)
 * the spec does not say the source ships (build.prebuilt_objects). */
static int is_built_object(const char *rel, const char *name,
			   const struct pp_strlist *prebuilt)
{
	const char *dot = strrchr(name, '.');

	if (!dot || dot == name || (strcmp(dot, ".o") && strcmp(dot, ".lo")))
		return 0;
	for (size_t i = 0; i < prebuilt->nr; i++)
		if (!fnmatch(prebuilt->items[i], rel, 0))
			return 0;
	return 1;
}

/* Counts the object files built in place under dir, the first one's path
 * relative to the source in first; leaves out .git and the build
 * directory (skip, relative to the source). */
static size_t count_objects(const char *source, struct strbuf *rel,
			    const char *skip, const struct pp_strlist *prebuilt,
			    struct strbuf *first, int depth)
{
	struct strbuf path = STRBUF_INIT;
	size_t base = rel->len, nr = 0;
	struct dirent *de;
	DIR *d;

	strbuf_addf(&path, "%s/%s", source, rel->buf);
	d = depth < 64 ? opendir(path.buf) : NULL;
	strbuf_release(&path);
	while (d && (de = readdir(d))) {
		const char *name = de->d_name;
		int type;

		if (!strcmp(name, ".") || !strcmp(name, "..") ||
		    (!depth && !strcmp(name, ".git")))
			continue;
		strbuf_addf(rel, "%s%s", base ? "/" : "", name);
		type = entry_type(d, de);
		if (type == DT_DIR && !(skip && !strcmp(rel->buf, skip)))
			nr += count_objects(source, rel, skip, prebuilt, first,
					    depth + 1);
		else if (type == DT_REG &&
			 is_built_object(rel->buf, name, prebuilt) &&
			 !nr++ && !first->len)
			strbuf_addstr(first, rel->buf);
		strbuf_setlen(rel, base);
	}
	if (d)
		closedir(d);
	return nr;
}

/* A plain Makefile in its copy, and autotools' make through VPATH, take
 * objects built in the source tree as made: a variant would ship code
 * built with other flags, without a word. configure refuses a source
 * configured in place itself, but only after a while. */
int pp_system_check_source(const struct pp_build *b, struct pp_err *err)
{
	enum pp_build_kind kind = b->spec->system.kind;
	struct strbuf rel = STRBUF_INIT, first = STRBUF_INIT;
	size_t nr;
	char *status;
	int rc = 0;

	if (kind != PP_BUILD_MAKE && kind != PP_BUILD_AUTOTOOLS)
		return 0;
	status = xmalloc(strlen(b->source) + sizeof("/config.status"));
	sprintf(status, "%s/config.status", b->source);
	if (kind == PP_BUILD_AUTOTOOLS && !access(status, F_OK))
		rc = pp_err_set(err, PP_EXIT_INPUT, "source tree '%s' is "
				"configured in place (%s): padpack configures "
				"each variant in its own build tree, which "
				"configure refuses then; run 'make distclean' "
				"there", b->source, status);
	free(status);
	nr = rc ? 0 : count_objects(b->source, &rel, build_dir_inside(b),
				    &b->spec->system.prebuilt_objects, &first,
				    0);
	if (nr)
		rc = pp_err_set(err, PP_EXIT_INPUT, "source tree '%s' holds "
				"%zu object file%s built in place (%s%s): make "
				"would take %s as built for every variant, "
				"whatever its flags; run 'make clean' (or 'git "
				"clean -fdX') there, or list the objects it "
				"ships on purpose in build.prebuilt_objects",
				b->source, nr, nr == 1 ? "" : "s", first.buf,
				nr > 1 ? " ..." : "", nr == 1 ? "it" : "them");
	strbuf_release(&rel);
	strbuf_release(&first);
	return rc;
}

static struct pp_step *add_step(struct pp_job *j, enum pp_phase phase,
				const char *cwd, const struct pp_strlist *env)
{
	struct pp_step *st = &j->steps[j->nr_steps++];

	st->phase = phase;
	st->cwd = cwd ? xstrdup(cwd) : NULL;
	if (env)
		pp_strlist_extend(&st->env, env);
	return st;
}

static char *in_obj(const struct pp_job *j, const char *name)
{
	char *p = xmalloc(strlen(j->obj) + strlen(name) + 2);

	sprintf(p, "%s/%s", j->obj, name);
	return p;
}

/* ---- CMake ----------------------------------------------------------- */

/* The host's ccache, through the variables CMake reads at configure. */
static void add_ccache(struct pp_strlist *env)
{
	static const char *const langs[] = { "C", "CXX", "CUDA" };
	char *ccache = pp_find_program("ccache", NULL);

	for (size_t i = 0; ccache && i < ARRAY_SIZE(langs); i++)
		pp_strlist_pushf(env, "CMAKE_%s_COMPILER_LAUNCHER=%s", langs[i],
				 ccache);
	free(ccache);
}

static void cmake_steps(const struct pp_build *b, struct pp_job *j,
			const struct settings_out *o, int ccache)
{
	struct pp_strlist env = PP_STRLIST_INIT;
	struct pp_step *st;

	pp_strlist_extend(&env, &o->env);
	if (ccache && !b->image)
		add_ccache(&env);
	st = add_step(j, PP_PHASE_CONFIGURE, NULL, &env);
	pp_strlist_release(&env);
	pp_strlist_push(&st->argv, "cmake");
	pp_strlist_push(&st->argv, "-S");
	pp_strlist_push(&st->argv, pp_build_source_seen(b));
	pp_strlist_push(&st->argv, "-B");
	pp_strlist_push(&st->argv, j->obj);
	if (b->spec->generator) {
		pp_strlist_push(&st->argv, "-G");
		pp_strlist_push(&st->argv, b->spec->generator);
	}
	/* Debian's directories, as for autotools and meson (and as
	 * dh_auto_configure passes them); the spec's arguments come after,
	 * so a -D of its own wins */
	pp_strlist_push(&st->argv, "-DCMAKE_INSTALL_PREFIX=/usr");
	pp_strlist_pushf(&st->argv, "-DCMAKE_INSTALL_LIBDIR=lib/%s",
			 b->multiarch);
	pp_strlist_push(&st->argv, "-DCMAKE_INSTALL_SYSCONFDIR=/etc");
	pp_strlist_push(&st->argv, "-DCMAKE_INSTALL_LOCALSTATEDIR=/var");
	/* a build RPATH of $ORIGIN, not the build tree's path: the install
	 * takes it out, but leaves its length in .dynstr, which moved what
	 * follows by how long BUILD_DIR was */
	pp_strlist_push(&st->argv, "-DCMAKE_BUILD_RPATH_USE_ORIGIN=ON");
	pp_strlist_extend(&st->argv, &o->cmake);
	/* a configure that runs starts from no cache, keeping the objects */
	j->tree_mark = in_obj(j, "CMakeCache.txt");
	j->keep_objects = 1;

	st = add_step(j, PP_PHASE_BUILD, NULL, &o->env);
	pp_strlist_push(&st->argv, "cmake");
	pp_strlist_push(&st->argv, "--build");
	pp_strlist_push(&st->argv, j->obj);
	pp_strlist_push(&st->argv, "--parallel");
	pp_strlist_pushf(&st->argv, "%d", j->compile_jobs);
	/* the log shows each compiler command, flags and all */
	pp_strlist_push(&st->argv, "--verbose");
	if (b->test) {
		st = add_step(j, PP_PHASE_TEST, j->obj, &o->env);
		pp_strlist_push(&st->argv, "ctest");
		pp_strlist_push(&st->argv, "--output-on-failure");
		pp_strlist_extend(&st->argv, &o->test_args);
	}
	pp_strlist_extend(&env, &o->env);
	pp_strlist_pushf(&env, "DESTDIR=%s", j->stage);
	st = add_step(j, PP_PHASE_INSTALL, NULL, &env);
	pp_strlist_push(&st->argv, "cmake");
	pp_strlist_push(&st->argv, "--install");
	pp_strlist_push(&st->argv, j->obj);
	pp_strlist_release(&env);
}

/* ---- make, and the make part of autotools ---------------------------- */

/* The words of targets ("libs shared": two targets), if any. */
static void add_targets(struct pp_strlist *argv, const char *targets)
{
	const char *p = targets;

	while (p && *(p += strspn(p, " \t"))) {
		size_t len = strcspn(p, " \t");

		pp_strlist_push_owned(argv, xstrndup(p, len));
		p += len;
	}
}

/* make -C OBJ [-j N] VARS [TARGET], its flags in the environment (so that
 * a Makefile's own CFLAGS += ... still adds to them). */
static struct pp_step *make_step(struct pp_job *j, enum pp_phase phase,
				 const struct settings_out *o, const char *target)
{
	struct pp_step *st = add_step(j, phase, NULL, &o->env);

	pp_strlist_push(&st->argv, "make");
	pp_strlist_push(&st->argv, "-C");
	pp_strlist_push(&st->argv, j->obj);
	if (phase == PP_PHASE_BUILD)
		pp_strlist_pushf(&st->argv, "-j%d", j->compile_jobs);
	pp_strlist_extend(&st->argv, &o->make_vars);
	if (phase == PP_PHASE_INSTALL)
		pp_strlist_pushf(&st->argv, "DESTDIR=%s", j->stage);
	add_targets(&st->argv, target);
	if (phase == PP_PHASE_TEST)
		pp_strlist_extend(&st->argv, &o->test_args);
	return st;
}

/* The spec's after_build or after_install lines: sh -e in OBJ, with the
 * variant's make variables as "$@" (make -C sub "$@" target builds with
 * them), SRC, BUILD, JOBS and for the install DESTDIR. Not part of the
 * stamp: they run every time, and what they make is make's to redo. */
static void after_step(const struct pp_build *b, struct pp_job *j,
		       enum pp_phase phase, const struct settings_out *o,
		       const struct pp_strlist *lines)
{
	struct pp_strlist env = PP_STRLIST_INIT;
	struct pp_step *st;

	if (!lines->nr)
		return;
	pp_strlist_extend(&env, &o->env);
	pp_strlist_pushf(&env, "SRC=%s", pp_build_source_seen(b));
	pp_strlist_pushf(&env, "BUILD=%s", j->obj);
	pp_strlist_pushf(&env, "JOBS=%d", j->compile_jobs);
	if (phase == PP_PHASE_INSTALL)
		pp_strlist_pushf(&env, "DESTDIR=%s", j->stage);
	st = add_step(j, phase, j->obj, &env);
	pp_strlist_release(&env);
	pp_strlist_push(&st->argv, "sh");
	pp_strlist_push(&st->argv, "-ec");
	pp_strlist_push_owned(&st->argv, pp_strlist_join(lines, "\n"));
	pp_strlist_push(&st->argv, "sh");
	pp_strlist_extend(&st->argv, &o->make_vars);
}

/* Build, test and install by make in OBJ, as make and autotools do. */
static void make_later_steps(const struct pp_build *b, struct pp_job *j,
			     const struct settings_out *o,
			     const char *test_target)
{
	const struct pp_build_system *sys = &b->spec->system;

	make_step(j, PP_PHASE_BUILD, o, sys->make_target);
	after_step(b, j, PP_PHASE_BUILD, o, &o->after_build);
	if (b->test && test_target)
		make_step(j, PP_PHASE_TEST, o, test_target);
	make_step(j, PP_PHASE_INSTALL, o, sys->make_install_target ?
		  sys->make_install_target : "install");
	after_step(b, j, PP_PHASE_INSTALL, o, &o->after_install);
}

/* A plain Makefile builds in its source directory: each variant gets a
 * copy (rsync, on the host even for container builds), updated by size
 * and time, so make sees only what changed. Its configuration is its
 * variables and environment: when they change, the copy starts afresh,
 * as a Makefile does not know its objects were made with other flags. */
static void make_steps(const struct pp_build *b, struct pp_job *j,
		       const struct settings_out *o)
{
	const struct pp_build_system *sys = &b->spec->system;
	struct strbuf stamp = STRBUF_INIT;
	struct pp_step *st;

	st = add_step(j, PP_PHASE_COPY, NULL, NULL);
	pp_strlist_push(&st->argv, "rsync");
	pp_strlist_push(&st->argv, "-a");
	pp_strlist_push(&st->argv, "--modify-window=-1");
	pp_strlist_push(&st->argv, "--exclude=/.git");
	/* a build directory in the source would be copied into itself */
	if (build_dir_inside(b))
		pp_strlist_pushf(&st->argv, "--exclude=/%s",
				 build_dir_inside(b));
	pp_strlist_pushf(&st->argv, "%s/", b->source);
	pp_strlist_pushf(&st->argv, "%s/", j->obj);
	make_later_steps(b, j, o, sys->make_test_target);

	strbuf_addstr(&stamp, "make\n");
	for (size_t i = 0; i < o->make_vars.nr; i++)
		strbuf_addf(&stamp, "%s\n", o->make_vars.items[i]);
	strbuf_addf(&stamp, "target %s\n", sys->make_target ?
		    sys->make_target : "");
	strbuf_addstr(&stamp, "--- environment\n");
	for (size_t i = 0; i < o->env.nr; i++)
		strbuf_addf(&stamp, "%s\n", o->env.items[i]);
	j->stamp_text = strbuf_detach(&stamp, NULL);
}

/* SOURCE/configure in OBJ, as Debian's dh_auto_configure but keeping
 * dependency tracking (for rebuilds), then make. */
static void autotools_steps(const struct pp_build *b, struct pp_job *j,
			    const struct settings_out *o)
{
	const struct pp_build_system *sys = &b->spec->system;
	struct pp_step *st = add_step(j, PP_PHASE_CONFIGURE, j->obj, &o->env);

	pp_strlist_pushf(&st->argv, "%s/configure", pp_build_source_seen(b));
	pp_strlist_push(&st->argv, "--prefix=/usr");
	pp_strlist_pushf(&st->argv, "--libdir=/usr/lib/%s", b->multiarch);
	pp_strlist_push(&st->argv, "--sysconfdir=/etc");
	pp_strlist_push(&st->argv, "--localstatedir=/var");
	/* the log shows each compiler command, as dh_auto_configure has it */
	pp_strlist_push(&st->argv, "--disable-silent-rules");
	pp_strlist_extend(&st->argv, &o->configure_args);
	j->tree_mark = in_obj(j, "config.status");
	make_later_steps(b, j, o, sys->make_test_target ?
			 sys->make_test_target : "check");
}

/* ---- meson ----------------------------------------------------------- */

static struct pp_step *meson_step(struct pp_job *j, enum pp_phase phase,
				  const char *verb,
				  const struct pp_strlist *env)
{
	struct pp_step *st = add_step(j, phase, NULL, env);

	pp_strlist_push(&st->argv, "meson");
	pp_strlist_push(&st->argv, verb);
	pp_strlist_push(&st->argv, "-C");
	pp_strlist_push(&st->argv, j->obj);
	return st;
}

static void meson_steps(const struct pp_build *b, struct pp_job *j,
			const struct settings_out *o)
{
	struct pp_step *st = add_step(j, PP_PHASE_CONFIGURE, NULL, &o->env);

	pp_strlist_push(&st->argv, "meson");
	pp_strlist_push(&st->argv, "setup");
	pp_strlist_push(&st->argv, "--prefix=/usr");
	pp_strlist_pushf(&st->argv, "--libdir=lib/%s", b->multiarch);
	pp_strlist_push(&st->argv, "--buildtype=plain");
	pp_strlist_push(&st->argv, "--wrap-mode=nodownload");
	pp_strlist_extend(&st->argv, &o->meson_args);
	pp_strlist_push(&st->argv, j->obj);
	pp_strlist_push(&st->argv, pp_build_source_seen(b));
	j->tree_mark = in_obj(j, "build.ninja");

	st = meson_step(j, PP_PHASE_BUILD, "compile", &o->env);
	pp_strlist_pushf(&st->argv, "-j%d", j->compile_jobs);
	pp_strlist_push(&st->argv, "--verbose"); /* each compiler command */
	if (b->test) {
		st = meson_step(j, PP_PHASE_TEST, "test", &o->env);
		/* meson runs as many tests at once as there are CPUs */
		pp_strlist_push(&st->argv, "--num-processes");
		pp_strlist_pushf(&st->argv, "%d", j->compile_jobs);
		pp_strlist_push(&st->argv, "--print-errorlogs");
		pp_strlist_extend(&st->argv, &o->test_args);
	}
	st = meson_step(j, PP_PHASE_INSTALL, "install", &o->env);
	pp_strlist_push(&st->argv, "--destdir");
	pp_strlist_push(&st->argv, j->stage);
}

/* ---- the spec's commands --------------------------------------------- */

/* Each step's lines run by sh -e in OBJ with SRC, BUILD and JOBS (and
 * DESTDIR for the install) besides the variant's environment. */
static void commands_steps(const struct pp_build *b, struct pp_job *j,
			   const struct settings_out *o)
{
	const struct pp_strlist *lines = o->commands;
	static const enum pp_phase phases[PP_NR_CMD_STEPS] = {
		PP_PHASE_CONFIGURE, PP_PHASE_BUILD, PP_PHASE_TEST,
		PP_PHASE_INSTALL,
	};
	struct pp_strlist env = PP_STRLIST_INIT;

	pp_strlist_extend(&env, &o->env);
	pp_strlist_pushf(&env, "SRC=%s", pp_build_source_seen(b));
	pp_strlist_pushf(&env, "BUILD=%s", j->obj);
	pp_strlist_pushf(&env, "JOBS=%d", j->compile_jobs);
	for (int i = 0; i < PP_NR_CMD_STEPS; i++) {
		struct pp_step *st;

		if (!lines[i].nr || (i == PP_CMD_TEST && !b->test))
			continue;
		if (i == PP_CMD_INSTALL)
			pp_strlist_pushf(&env, "DESTDIR=%s", j->stage);
		st = add_step(j, phases[i], j->obj, &env);
		pp_strlist_push(&st->argv, "sh");
		pp_strlist_push(&st->argv, "-ec");
		pp_strlist_push_owned(&st->argv, pp_strlist_join(&lines[i],
								 "\n"));
	}
	pp_strlist_release(&env);
}

void pp_system_steps(const struct pp_build *b, struct pp_job *j,
		     const struct settings_out *o, int ccache)
{
	switch (b->spec->system.kind) {
	case PP_BUILD_CMAKE: cmake_steps(b, j, o, ccache); break;
	case PP_BUILD_MAKE: make_steps(b, j, o); break;
	case PP_BUILD_AUTOTOOLS: autotools_steps(b, j, o); break;
	case PP_BUILD_MESON: meson_steps(b, j, o); break;
	case PP_BUILD_COMMANDS: commands_steps(b, j, o); break;
	}
}
