/* Planning a build: for each selected variant, the tools it needs, its
 * settings with placeholders expanded, and the command of every step. */
#include "build.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "proc.h"
#include "xalloc.h"

const char *pp_phase_name(enum pp_phase phase)
{
	static const char *const names[] = {
		"waiting", "configure", "build", "test", "install", "done",
		"failed", "skipped",
	};

	return (size_t)phase < ARRAY_SIZE(names) ? names[phase] : "?";
}

/* path made absolute against the current directory. */
static char *absolute(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *cwd;

	if (*path == '/')
		return xstrdup(path);
	cwd = getcwd(NULL, 0);
	strbuf_addf(&sb, "%s/", cwd ? cwd : ".");
	free(cwd);
	while (!strncmp(path, "./", 2))
		path += 2;
	strbuf_addstr(&sb, strcmp(path, ".") ? path : "");
	while (sb.len > 1 && sb.buf[sb.len - 1] == '/')
		strbuf_setlen(&sb, sb.len - 1);
	return strbuf_detach(&sb, NULL);
}

/* Looks up each tool of set; on the host a missing one skips the variant
 * (*why says which), in an image the tools are the image's business. */
static void find_tools(const struct pp_settings *set, int in_image,
		       struct pp_strlist *tools, struct strbuf *why)
{
	for (size_t i = 0; i < set->nr_needs && !why->len; i++) {
		const struct pp_tool *t = &set->needs[i];
		char *path = in_image ? xstrdup(t->program) :
			     pp_find_program(t->program, &t->search);
		char *dirs = pp_strlist_join(&t->search, ", ");

		if (path)
			pp_strlist_pushf(tools, "%s=%s", t->program, path);
		else
			strbuf_addf(why, "needs %s (%s), which is not installed "
				    "here: not in PATH%s%s", t->program, t->what,
				    *dirs ? " nor in " : "", dirs);
		free(dirs);
		free(path);
	}
}

/* Sets NAME=VALUE in env, replacing an earlier NAME. */
static void env_set(struct pp_strlist *env, char *assignment)
{
	size_t len = strcspn(assignment, "=") + 1;

	for (size_t i = 0; i < env->nr; i++)
		if (!strncmp(env->items[i], assignment, len)) {
			free(env->items[i]);
			env->items[i] = assignment;
			return;
		}
	pp_strlist_push_owned(env, assignment);
}

static void env_set_var(struct pp_strlist *env, const char *name,
			const char *value)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s=%s", name, value);
	env_set(env, strbuf_detach(&sb, NULL));
}

/* A variant's settings with placeholders expanded. */
struct settings_out {
	struct pp_strlist cmake, cflags, env;
	struct pp_strlist test_args;    /* the spec's */
	struct pp_strlist engine_flags; /* its values' container.build_flags */
};

static int expand_into(const struct pp_strlist *in,
		       const struct pp_expand_ctx *ctx, struct pp_strlist *out,
		       int is_env, struct pp_err *err)
{
	for (size_t i = 0; i < in->nr; i++) {
		struct strbuf sb = STRBUF_INIT;

		if (pp_spec_expand(in->items[i], ctx, &sb, err) < 0) {
			strbuf_release(&sb);
			return -1;
		}
		if (is_env)
			env_set(out, strbuf_detach(&sb, NULL));
		else
			pp_strlist_push_owned(out, strbuf_detach(&sb, NULL));
	}
	return 0;
}

static int add_settings(const struct pp_settings *set,
			const struct pp_expand_ctx *ctx, struct settings_out *o,
			struct pp_err *err)
{
	return expand_into(&set->cmake, ctx, &o->cmake, 0, err) ||
	       expand_into(&set->cflags, ctx, &o->cflags, 0, err) ||
	       expand_into(&set->env, ctx, &o->env, 1, err) ? -1 : 0;
}

/* The build section's settings, then each axis value's in axis order.
 * The compiler flags reach CMake as CFLAGS and CXXFLAGS, which it reads
 * when configuring from no cache, as every configure here does. */
static int variant_settings(const struct pp_build *b, const struct pp_job *j,
			    const struct pp_expand_ctx *ctx,
			    struct settings_out *o, struct pp_err *err)
{
	char *cflags;

	const struct pp_variant *v = j->variant;

	if (add_settings(&b->spec->build, ctx, o, err) < 0 ||
	    expand_into(&b->spec->test_args, ctx, &o->test_args, 0, err) < 0)
		return -1;
	for (size_t a = 0; a < b->spec->nr_axes; a++)
		if (add_settings(&v->values[a]->set, ctx, o, err) < 0 ||
		    expand_into(&v->values[a]->container.build_flags, ctx,
				&o->engine_flags, 0, err) < 0)
			return -1;
	if (!o->cflags.nr)
		return 0;
	cflags = pp_strlist_join(&o->cflags, " ");
	env_set_var(&o->env, "CFLAGS", cflags);
	env_set_var(&o->env, "CXXFLAGS", cflags);
	free(cflags);
	return 0;
}

static void settings_release(struct settings_out *o)
{
	pp_strlist_release(&o->cmake);
	pp_strlist_release(&o->cflags);
	pp_strlist_release(&o->env);
	pp_strlist_release(&o->test_args);
	pp_strlist_release(&o->engine_flags);
}

static struct pp_step *add_step(struct pp_job *j, enum pp_phase phase,
				const char *cwd, const struct pp_strlist *env)
{
	struct pp_step *st = &j->steps[j->nr_steps++];

	st->phase = phase;
	st->cwd = cwd ? xstrdup(cwd) : NULL;
	pp_strlist_extend(&st->env, env);
	return st;
}

/* Where container builds see the source tree. */
static const char *mount_point(const struct pp_build *b)
{
	return b->spec->image.mount ? b->spec->image.mount : "/paddle";
}

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

static void configure_step(const struct pp_build *b, struct pp_job *j,
			   const struct settings_out *o, int ccache)
{
	struct pp_strlist env = PP_STRLIST_INIT;
	struct pp_step *st;

	pp_strlist_extend(&env, &o->env);
	if (ccache && !b->image)
		add_ccache(&env);
	st = add_step(j, PP_PHASE_CONFIGURE, NULL, &env);
	pp_strlist_push(&st->argv, "cmake");
	pp_strlist_push(&st->argv, "-S");
	pp_strlist_push(&st->argv, b->image ? mount_point(b) : b->source);
	pp_strlist_push(&st->argv, "-B");
	pp_strlist_push(&st->argv, j->obj);
	if (b->spec->generator) {
		pp_strlist_push(&st->argv, "-G");
		pp_strlist_push(&st->argv, b->spec->generator);
	}
	pp_strlist_extend(&st->argv, &o->cmake);
	pp_strlist_release(&env);
}

static void later_steps(const struct pp_build *b, struct pp_job *j,
			const struct settings_out *o)
{
	struct pp_strlist env = PP_STRLIST_INIT;
	struct pp_step *st;

	st = add_step(j, PP_PHASE_BUILD, NULL, &o->env);
	pp_strlist_push(&st->argv, "cmake");
	pp_strlist_push(&st->argv, "--build");
	pp_strlist_push(&st->argv, j->obj);
	pp_strlist_push(&st->argv, "--parallel");
	pp_strlist_pushf(&st->argv, "%d", b->compile_jobs);
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

/* Runs the step in the image instead: the source at the spec's mount
 * point, the variant's directory at its own path, the environment as
 * -e flags, the device's build flags, files owned by the caller. */
static void in_container(const struct pp_build *b, const struct pp_job *j,
			 const struct pp_strlist *engine_flags, struct pp_step *st)
{
	struct pp_strlist argv = PP_STRLIST_INIT;

	pp_strlist_push(&argv, b->engine);
	pp_strlist_push(&argv, "run");
	pp_strlist_push(&argv, "--rm");
	pp_strlist_pushf(&argv, "--user=%u:%u", (unsigned)getuid(),
			 (unsigned)getgid());
	pp_strlist_push(&argv, "-v");
	pp_strlist_pushf(&argv, "%s:%s", b->source, mount_point(b));
	pp_strlist_push(&argv, "-v");
	pp_strlist_pushf(&argv, "%s:%s", j->dir, j->dir);
	pp_strlist_pushf(&argv, "--workdir=%s", st->cwd ? st->cwd : j->dir);
	for (size_t i = 0; i < st->env.nr; i++) {
		pp_strlist_push(&argv, "-e");
		pp_strlist_push(&argv, st->env.items[i]);
	}
	pp_strlist_extend(&argv, engine_flags);
	pp_strlist_push(&argv, b->image);
	pp_strlist_extend(&argv, &st->argv);
	pp_strlist_release(&st->argv);
	pp_strlist_release(&st->env);
	st->argv = argv;
	free(st->cwd);
	st->cwd = NULL;
}

static char *path_join(const char *dir, const char *name)
{
	char *p = xmalloc(strlen(dir) + strlen(name) + 2);

	sprintf(p, "%s/%s", dir, name);
	return p;
}

/* The paths of a job, and whether its tools are here (else: skipped). */
static int job_init(struct pp_build *b, struct pp_job *j,
		    const struct pp_variant *v, const char *build_dir,
		    struct pp_strlist *tools, int require_all,
		    struct pp_err *err)
{
	struct strbuf why = STRBUF_INIT;

	j->variant = v;
	j->pid = -1;
	j->log_fd = -1;
	j->dir = path_join(build_dir, v->name);
	j->obj = path_join(j->dir, b->image ? "obj-image" : "obj");
	j->stage = path_join(j->dir, "stage");
	j->log = path_join(j->dir, "build.log");
	j->stamp = path_join(j->obj, "padpack-configure.stamp");
	find_tools(&b->spec->build, !!b->image, tools, &why);
	for (size_t a = 0; a < b->spec->nr_axes; a++)
		find_tools(&v->values[a]->set, !!b->image, tools, &why);
	if (why.len && require_all) {
		pp_err_set(err, PP_EXIT_BUILD, "variant %s %s; install it or "
			   "leave out --require-all", v->name, why.buf);
		strbuf_release(&why);
		return -1;
	}
	if (why.len) {
		j->phase = PP_PHASE_SKIPPED;
		j->message = strbuf_detach(&why, NULL);
	}
	strbuf_release(&why);
	return 0;
}

void pp_step_stamp(const struct pp_step *st, struct strbuf *out)
{
	for (size_t i = 0; i < st->argv.nr; i++)
		strbuf_addf(out, "%s\n", st->argv.items[i]);
	strbuf_addstr(out, "--- environment\n");
	for (size_t i = 0; i < st->env.nr; i++)
		strbuf_addf(out, "%s\n", st->env.items[i]);
}

/* Configure is up to date when the last one in obj ran with the same
 * command and environment; the build step re-runs CMake by itself when
 * the project's CMake files change. */
static void check_up_to_date(struct pp_job *j)
{
	struct strbuf want = STRBUF_INIT, have = STRBUF_INIT;
	struct pp_err ignored;
	char *cache = path_join(j->obj, "CMakeCache.txt");

	pp_err_init(&ignored);
	pp_step_stamp(&j->steps[0], &want);
	if (!access(cache, F_OK) && !pp_read_file(j->stamp, &have, &ignored))
		j->steps[0].up_to_date = !strcmp(want.buf, have.buf);
	pp_err_release(&ignored);
	strbuf_release(&want);
	strbuf_release(&have);
	free(cache);
}

static int job_steps(struct pp_build *b, struct pp_job *j,
		     const struct pp_strlist *tools, int ccache,
		     struct pp_err *err)
{
	struct pp_expand_ctx ctx = { b->spec, j->variant, b->version, b->test,
				     b->compile_jobs, tools };
	struct settings_out o = { PP_STRLIST_INIT, PP_STRLIST_INIT,
				  PP_STRLIST_INIT, PP_STRLIST_INIT,
				  PP_STRLIST_INIT };

	if (variant_settings(b, j, &ctx, &o, err) < 0) {
		settings_release(&o);
		return -1;
	}
	configure_step(b, j, &o, ccache);
	later_steps(b, j, &o);
	for (size_t i = 0; b->image && i < j->nr_steps; i++)
		in_container(b, j, &o.engine_flags, &j->steps[i]);
	settings_release(&o);
	check_up_to_date(j);
	return 0;
}

int pp_container_engine(const char *name, char **path, struct pp_err *err)
{
	if (name) {
		*path = pp_find_program(name, NULL);
		if (!*path)
			return pp_err_set(err, PP_EXIT_BUILD, "container engine "
					  "'%s' is not installed (not in PATH)",
					  name);
		return 0;
	}
	*path = pp_find_program("docker", NULL);
	if (!*path)
		*path = pp_find_program("podman", NULL);
	if (!*path)
		return pp_err_set(err, PP_EXIT_BUILD, "no container engine is "
				  "installed: neither docker nor podman is in "
				  "PATH; install one (apt-get install docker.io "
				  "or podman) or build on the host, without "
				  "--in-image");
	return 0;
}

static int check_source(const char *source, struct pp_err *err)
{
	struct stat st;
	char *lists;
	int rc = 0;

	if (stat(source, &st) < 0 || !S_ISDIR(st.st_mode))
		return pp_err_set(err, PP_EXIT_IO, "source tree '%s' is not a "
				  "directory%s%s", source, errno ? ": " : "",
				  errno ? strerror(errno) : "");
	lists = path_join(source, "CMakeLists.txt");
	if (access(lists, R_OK) < 0)
		rc = pp_err_set(err, PP_EXIT_INPUT, "source tree '%s' has no "
				"CMakeLists.txt; padpack build drives CMake "
				"projects", source);
	free(lists);
	return rc;
}

/* The image to build in: the one given, else the spec's image.dev. */
static int dev_image(struct pp_build *b, const char *given,
		     struct pp_err *err)
{
	struct pp_expand_ctx ctx = { b->spec, NULL, b->version, b->test, 1,
				     NULL };
	struct strbuf sb = STRBUF_INIT;

	if (*given) {
		b->image = xstrdup(given);
		return 0;
	}
	if (!b->spec->image.dev)
		return pp_err_set(err, PP_EXIT_USAGE, "--in-image without IMAGE "
				  "needs image.dev in %s; name the image: "
				  "--in-image=IMAGE", b->spec->path);
	if (pp_spec_expand(b->spec->image.dev, &ctx, &sb, err) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	b->image = strbuf_detach(&sb, NULL);
	return 0;
}

static int plan_setup(struct pp_build *b, const struct pp_spec *spec,
		      const struct pp_build_opts *opts, struct pp_err *err)
{
	memset(b, 0, sizeof(*b));
	b->spec = spec;
	errno = 0;
	if (check_source(opts->source ? opts->source : spec->source, err) < 0)
		return -1;
	b->source = absolute(opts->source ? opts->source : spec->source);
	if (pp_spec_version(spec, b->source, &b->version, &b->version_origin,
			    err) < 0)
		return -1;
	b->test = opts->test >= 0 ? opts->test : spec->test;
	if (!opts->image)
		return 0;
	if (dev_image(b, opts->image, err) < 0)
		return -1;
	if (pp_container_engine(opts->engine, &b->engine, err) == 0)
		return 0;
	if (!opts->dry_run)
		return -1;
	/* a dry run shows the command all the same */
	pp_warn(err, "padpack: warning: %s", err->msg);
	err->code = PP_EXIT_OK;
	err->msg[0] = '\0';
	b->engine = xstrdup(opts->engine ? opts->engine : "docker");
	return 0;
}

int pp_build_plan(struct pp_build *b, const struct pp_spec *spec,
		  const unsigned char *selected,
		  const struct pp_build_opts *opts, struct pp_err *err)
{
	struct pp_strlist *tools;
	char *build_dir;
	size_t runnable = 0;
	int rc = 0;

	if (plan_setup(b, spec, opts, err) < 0)
		return -1;
	build_dir = absolute(opts->build_dir);
	b->jobs = xcalloc(spec->nr_variants + 1, sizeof(*b->jobs));
	tools = xcalloc(spec->nr_variants + 1, sizeof(*tools));
	for (size_t i = 0; !rc && i < spec->nr_variants; i++) {
		struct pp_job *j = &b->jobs[b->nr_jobs];

		if (!selected[i])
			continue;
		rc = job_init(b, j, &spec->variants[i], build_dir,
			      &tools[b->nr_jobs++], opts->require_all, err);
		runnable += j->phase != PP_PHASE_SKIPPED;
	}
	b->parallel = runnable < (size_t)opts->jobs ? (int)runnable : opts->jobs;
	b->parallel = b->parallel < 1 ? 1 : b->parallel;
	b->compile_jobs = opts->jobs / b->parallel < 1 ? 1 :
			  opts->jobs / b->parallel;
	for (size_t i = 0; !rc && i < b->nr_jobs; i++)
		if (b->jobs[i].phase != PP_PHASE_SKIPPED)
			rc = job_steps(b, &b->jobs[i], &tools[i], opts->ccache,
				       err);
	for (size_t i = 0; i < b->nr_jobs; i++)
		pp_strlist_release(&tools[i]);
	free(tools);
	free(build_dir);
	return rc;
}

void pp_build_release(struct pp_build *b)
{
	for (size_t i = 0; i < b->nr_jobs; i++) {
		struct pp_job *j = &b->jobs[i];

		for (size_t s = 0; s < j->nr_steps; s++) {
			pp_strlist_release(&j->steps[s].argv);
			pp_strlist_release(&j->steps[s].env);
			free(j->steps[s].cwd);
		}
		free(j->dir);
		free(j->obj);
		free(j->stage);
		free(j->log);
		free(j->stamp);
		free(j->message);
		if (j->log_fd >= 0)
			close(j->log_fd);
	}
	free(b->jobs);
	free(b->source);
	free(b->version);
	free(b->engine);
	free(b->image);
	memset(b, 0, sizeof(*b));
}
