/* padpack docker: the scripts written beside the Dockerfiles (POSIX sh):
 * the development image's default command, build-images.sh, run.sh and
 * the container.sh helpers. Words from the spec are double-quoted with
 * '$' left alone where the shell must expand it when the script runs.
 * Layering: calls down into docker-names.c only; docker-context.c calls
 * it, and it never calls docker-context.c or dockerfile.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docker-scripts.h"
#include "dockerint.h"
#include "proc.h"
#include "xalloc.h"

/* A word in double quotes: '$' stays for the shell to expand at run time;
 * '"', '\' and '`' are escaped. */
static void dquote(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '"');
	for (; *s; s++) {
		if (strchr("\"\\`", *s))
			strbuf_addch(out, '\\');
		strbuf_addch(out, *s);
	}
	strbuf_addch(out, '"');
}

/* ---- the development image's default command ---------------------------- */

/* The switches of v: its values' env settings without placeholders. */
static void variant_switches(const struct pp_variant *v, size_t nr_axes,
			     struct pp_strlist *out)
{
	for (size_t a = 0; a < nr_axes; a++) {
		const struct pp_strlist *env = &v->values[a]->set.env;

		for (size_t i = 0; i < env->nr; i++)
			if (!strchr(env->items[i], '@'))
				pp_strlist_push(out, env->items[i]);
	}
}

/* The variables set to @test@: the test switch of the build. */
static void test_switches(const struct pp_spec *spec, struct pp_strlist *out)
{
	const struct pp_strlist *env = &spec->build.env;

	for (size_t i = 0; i < env->nr; i++) {
		const char *eq = strchr(env->items[i], '=');

		if (!strcmp(eq + 1, "@test@"))
			pp_strlist_pushf(out, "%.*s", (int)(eq - env->items[i]),
					 env->items[i]);
	}
}

static const char dev_build_head[] =
	"#!/bin/sh\n"
	"# The default command of the development image of %s, written by\n"
	"# padpack docker dev: builds the source mounted at %s as Paddle's\n"
	"# build.sh did, into %s/build on the host: padpack build, padpack\n"
	"# split (the .debs in build/debs) and padpack docker prod (a\n"
	"# production Dockerfile per variant in build/VARIANT/image).\n"
	"# The variants are those whose switches the environment does not\n"
	"# contradict:%s\n"
	"# PADPACK_SPEC, PADPACK_SOURCE and PADPACK_BUILD_DIR override the spec,\n"
	"# the source tree and the build directory.\n"
	"set -eu\n"
	"spec=${PADPACK_SPEC:-%s}\n"
	"src=${PADPACK_SOURCE:-%s}\n"
	"out=${PADPACK_BUILD_DIR:-$src/build}\n\n"
	"# ON and OFF as build.sh and CMake spell them\n"
	"norm() {\n"
	"\tcase $1 in\n"
	"\t[Oo][Nn] | 1 | [Yy][Ee][Ss] | [Tt][Rr][Uu][Ee]) echo ON ;;\n"
	"\t[Oo][Ff][Ff] | 0 | [Nn][Oo] | [Ff][Aa][Ll][Ss][Ee]) echo OFF ;;\n"
	"\t*) printf '%%s\\n' \"$1\" ;;\n"
	"\tesac\n"
	"}\n"
	"# wants NAME VALUE: NAME is unset, empty or VALUE\n"
	"wants() {\n"
	"\teval \"v=\\${$1:-}\"\n"
	"\t[ -z \"$v\" ] || [ \"$(norm \"$v\")\" = \"$2\" ]\n"
	"}\n";

static void dev_aliases(const struct pp_spec *spec, struct strbuf *out)
{
	const struct pp_strlist *al = &spec->image.dev_env;

	if (al->nr)
		strbuf_addstr(out, "# the short names of Paddle's build.sh\n");
	for (size_t i = 0; i < al->nr; i++) {
		const char *eq = strchr(al->items[i], '=');
		int n = (int)(eq - al->items[i]);

		strbuf_addf(out, "if [ -n \"${%.*s:-}\" ] && [ -z \"${%s:-}\" ]; "
			    "then %s=$%.*s; fi\n", n, al->items[i], eq + 1,
			    eq + 1, n, al->items[i]);
	}
}

static void dev_select(const struct pp_spec *spec, struct strbuf *out)
{
	struct pp_strlist sw = PP_STRLIST_INIT;
	char *all = pp_spec_variant_list(spec);

	strbuf_addstr(out, "\nset --\n");
	for (size_t i = 0; i < spec->nr_variants; i++) {
		const struct pp_variant *v = &spec->variants[i];

		variant_switches(v, spec->nr_axes, &sw);
		strbuf_addstr(out, sw.nr ? "if" : "if true");
		for (size_t k = 0; k < sw.nr; k++) {
			const char *eq = strchr(sw.items[k], '=');

			strbuf_addf(out, "%s wants %.*s ", k ? " &&" : "",
				    (int)(eq - sw.items[k]), sw.items[k]);
			pp_shell_quote(out, eq + 1);
		}
		strbuf_addf(out, "; then set -- \"$@\" --variant=%s; fi\n",
			    v->name);
		pp_strlist_release(&sw);
	}
	strbuf_addf(out, "if [ $# = 0 ]; then\n\techo \"padpack-dev-build: no "
		    "variant has these switches; variants: %s\" >&2\n"
		    "\texit 2\nfi\n", all);
	free(all);
}

void pp_script_dev_build(const struct pp_spec *spec, const char *spec_path,
			 struct strbuf *out)
{
	struct pp_strlist sw = PP_STRLIST_INIT, tests = PP_STRLIST_INIT;
	struct strbuf doc = STRBUF_INIT;

	for (size_t i = 0; i < spec->nr_variants; i++) {
		variant_switches(&spec->variants[i], spec->nr_axes, &sw);
		strbuf_addf(&doc, "\n#   %-12s", spec->variants[i].name);
		for (size_t k = 0; k < sw.nr; k++)
			strbuf_addf(&doc, " %s", sw.items[k]);
		pp_strlist_release(&sw);
	}
	strbuf_addf(out, dev_build_head, spec->name, pp_mount(spec),
		    pp_mount(spec), doc.buf, spec_path, pp_mount(spec));
	dev_aliases(spec, out);
	dev_select(spec, out);
	test_switches(spec, &tests);
	strbuf_addstr(out, "test=\n");
	for (size_t i = 0; i < tests.nr; i++)
		strbuf_addf(out, "if [ \"$(norm \"${%s:-ON}\")\" = OFF ]; then "
			    "test=--no-test; fi\n", tests.items[i]);
	strbuf_addstr(out,
		"\nstep() { echo \"==> $*\"; \"$@\"; }\n"
		"step padpack build -c \"$spec\" --source \"$src\" -B \"$out\" "
		"$test \"$@\"\n"
		"step padpack split -c \"$spec\" -B \"$out\" \"$@\"\n"
		"step padpack docker prod -c \"$spec\" -B \"$out\" "
		"--source \"$src\" \"$@\"\n"
		"# what lands on the host belongs to the owner of the source tree\n"
		"if [ -d \"$out\" ]; then chown -R \"$(stat -c %u:%g \"$src\")\" "
		"\"$out\"; fi\n");
	pp_strlist_release(&tests);
	strbuf_release(&doc);
}

/* ---- build-images.sh -------------------------------------------------- */

void pp_image_jobs_add(struct pp_image_jobs *jobs, const char *what,
		       struct pp_strlist *tags, const char *context)
{
	struct pp_image_job *j;

	ARRAY_GROW(jobs->job, jobs->alloc, jobs->nr + 1);
	j = &jobs->job[jobs->nr++];
	j->what = xstrdup(what);
	j->tags = *tags;
	*tags = (struct pp_strlist)PP_STRLIST_INIT;
	j->context = xstrdup(context);
}

void pp_image_jobs_release(struct pp_image_jobs *jobs)
{
	for (size_t i = 0; i < jobs->nr; i++) {
		free(jobs->job[i].what);
		pp_strlist_release(&jobs->job[i].tags);
		free(jobs->job[i].context);
	}
	free(jobs->job);
}

static const char build_images_head[] =
	"#!/bin/sh\n"
	"# Builds and tags every image of %s, in order: the development\n"
	"# image, each production variant, then the application images.\n"
	"# Written by padpack docker all. Stops at the first failure, printing\n"
	"# the command that failed.\n"
	"#   usage: build-images.sh [--dry-run] [-- BUILD-OPTIONS...]\n"
	"# DOCKER names the engine (default docker; podman works too); the\n"
	"# production images need BuildKit (RUN --mount), set on here.\n"
	"set -u\n"
	"here=$(cd \"$(dirname \"$0\")\" && pwd)\n"
	"engine=${DOCKER:-docker}\n"
	"dry=\n"
	"while [ $# -gt 0 ]; do\n"
	"\tcase $1 in\n"
	"\t--dry-run | -n) dry=1; shift ;;\n"
	"\t--) shift; break ;;\n"
	"\t-h | --help) sed -n '2,9s/^# \\{0,1\\}//p' \"$0\"; exit 0 ;;\n"
	"\t*) echo \"build-images.sh: unknown option $1\" >&2; exit 2 ;;\n"
	"\tesac\n"
	"done\n"
	"export DOCKER_BUILDKIT=1\n\n"
	"# image WHAT CONTEXT TAG...: builds CONTEXT with every tag\n"
	"image() {\n"
	"\twhat=$1 ctx=$here/$2\n"
	"\tshift 2\n"
	"\tset -- \"$engine\" build \"$@\" ${opts:+$opts} \"$ctx\"\n"
	"\techo \"+ $*\"\n"
	"\t[ -n \"$dry\" ] && return 0\n"
	"\t\"$@\" || {\n"
	"\t\trc=$?\n"
	"\t\techo \"build-images.sh: the $what image failed (exit $rc): $*\" >&2\n"
	"\t\texit \"$rc\"\n"
	"\t}\n"
	"}\n"
	"opts=\"$*\"\n\n";

void pp_script_build_images(const struct pp_spec *spec,
			    const struct pp_image_jobs *jobs,
			    struct strbuf *out)
{
	strbuf_addf(out, build_images_head, spec->name);
	for (size_t i = 0; i < jobs->nr; i++) {
		const struct pp_image_job *j = &jobs->job[i];

		strbuf_addstr(out, "image ");
		pp_shell_quote(out, j->what);
		strbuf_addch(out, ' ');
		pp_shell_quote(out, j->context);
		for (size_t t = 0; t < j->tags.nr; t++) {
			strbuf_addstr(out, " \\\n\t-t ");
			pp_shell_quote(out, j->tags.items[t]);
		}
		strbuf_addch(out, '\n');
	}
	strbuf_addstr(out, "[ -n \"$dry\" ] || echo \"build-images.sh: all "
		      "images built\"\n");
}

/* ---- run.sh ------------------------------------------------------------- */

/* The run flags of v's device kinds, as shell words. */
static void run_flags(const struct pp_spec *spec, const struct pp_variant *v,
		      struct strbuf *out)
{
	for (size_t a = 0; a < spec->nr_axes; a++) {
		const struct pp_strlist *f = &v->values[a]->container.run_flags;

		for (size_t i = 0; i < f->nr; i++) {
			if (out->len)
				strbuf_addch(out, ' ');
			dquote(out, f->items[i]);
		}
	}
}

static const char run_head[] =
	"#!/bin/sh\n"
	"# Runs a production image of %s with the docker run flags of its\n"
	"# device kind (from the spec), written by padpack docker all.\n"
	"#   usage: run.sh [--dry-run] VARIANT [ARGS...]\n"
	"# ARGS go to the image's entry point. DOCKER names the engine.\n"
	"# The flags of each device kind:\n";

static const char run_tail[] =
	"*) echo \"run.sh: no variant '$variant'; see run.sh --help\" >&2; "
	"exit 2 ;;\n"
	"esac\n"
	"it=\n"
	"if [ -t 0 ] && [ -t 1 ]; then it=-it; fi\n"
	"# the flags are expanded now, as the spec wrote them ($HOME ...)\n"
	"set -- \"$image\" \"$@\"\n"
	"eval \"set -- $flags \\\"\\$@\\\"\"\n"
	"set -- \"${DOCKER:-docker}\" run --rm $it \"$@\"\n"
	"if [ -n \"$dry\" ]; then echo \"$*\"; else exec \"$@\"; fi\n";

static void run_doc(const struct pp_spec *spec, struct strbuf *out)
{
	struct strbuf flags = STRBUF_INIT;

	for (size_t a = 0; a < spec->nr_axes; a++)
		for (size_t i = 0; i < spec->axes[a].nr_values; i++) {
			const struct pp_axis_value *av = &spec->axes[a].values[i];

			if (!av->container.base && !av->container.run_flags.nr)
				continue;
			strbuf_reset(&flags);
			for (size_t k = 0; k < av->container.run_flags.nr; k++)
				strbuf_addf(&flags, " %s",
					    av->container.run_flags.items[k]);
			strbuf_addf(out, "#   %-10s%s\n", av->name,
				    flags.len ? flags.buf : " (none)");
		}
	strbuf_release(&flags);
}

int pp_script_run(const struct pp_spec *spec, const struct pp_docker_opts *o,
		  struct strbuf *out, struct pp_err *err)
{
	struct pp_strlist tags = PP_STRLIST_INIT;
	struct strbuf flags = STRBUF_INIT;
	int rc = 0;

	strbuf_addf(out, run_head, spec->name);
	run_doc(spec, out);
	strbuf_addstr(out, "# The variants and their images:\n");
	for (size_t i = 0; rc == 0 && i < spec->nr_variants; i++) {
		if (pp_spec_hwcaps_higher(spec, &spec->variants[i]))
			continue; /* in its baseline's image */
		rc = pp_docker_tags(spec, o, &spec->variants[i], &tags, err);
		if (rc == 0)
			strbuf_addf(out, "#   %-12s %s\n", spec->variants[i].name,
				    tags.items[0]);
		pp_strlist_release(&tags);
	}
	strbuf_addstr(out, "set -eu\ndry=\n"
		      "case ${1:-} in\n"
		      "-h | --help | '') sed -n '2,/^set -eu/s/^# \\{0,1\\}//p' "
		      "\"$0\" | sed '$d'; exit 0 ;;\n"
		      "--dry-run | -n) dry=1; shift ;;\n"
		      "esac\n"
		      "variant=$1\nshift\ncase $variant in\n");
	for (size_t i = 0; rc == 0 && i < spec->nr_variants; i++) {
		const struct pp_variant *v = &spec->variants[i];

		if (pp_spec_hwcaps_higher(spec, v))
			continue;
		rc = pp_docker_tags(spec, o, v, &tags, err);
		strbuf_reset(&flags);
		run_flags(spec, v, &flags);
		if (rc == 0) {
			strbuf_addf(out, "%s)\n\timage=", v->name);
			pp_shell_quote(out, tags.items[0]);
			strbuf_addstr(out, "\n\tflags=");
			pp_shell_quote(out, flags.buf);
			strbuf_addstr(out, " ;;\n");
		}
		pp_strlist_release(&tags);
	}
	strbuf_addstr(out, run_tail);
	strbuf_release(&flags);
	return rc;
}

/* ---- container.sh ------------------------------------------------------- */

static const char container_head[] =
	"#!/bin/sh\n"
	"# A development container of %s that stays, entered as often as\n"
	"# needed, in the style of Paddle's IPU scripts; written by padpack\n"
	"# docker all.\n"
	"#   usage: container.sh [--dry-run] [--with-root] [--device KIND]\n"
	"#                       [--name NAME] [--image IMAGE] [--source DIR]\n"
	"#                       {start [-- DOCKER-RUN-OPTIONS...] |\n"
	"#                        into [CMD...] | stop}\n"
	"# start  runs the image in the background with the source tree (default:\n"
	"#        the current directory) at %s, as the caller's UID and GID\n"
	"#        with the caller's passwd, group and home; --with-root as root\n"
	"# into   a shell (or CMD) in it, as the same user\n"
	"# stop   removes it\n"
	"# --dry-run prints the docker commands instead. KIND adds the run flags\n"
	"# of a device kind (%s). Run it as yourself, not as root.\n"
	"set -eu\n";

static const char container_body[] =
	"dry=\nroot=\nname=${PADPACK_CONTAINER:-%s-dev-$(id -un)}\ndevice=%s\n"
	"src=$(pwd)\n"
	"while [ $# -gt 0 ]; do\n"
	"\tcase $1 in\n"
	"\t--dry-run | -n) dry=1 ;;\n"
	"\t--with-root) root=1 ;;\n"
	"\t--device) device=$2; shift ;;\n"
	"\t--name) name=$2; shift ;;\n"
	"\t--image) image=$2; shift ;;\n"
	"\t--source) src=$(cd \"$2\" && pwd); shift ;;\n"
	"\t-h | --help) sed -n '2,/^set -eu/s/^# \\{0,1\\}//p' \"$0\" | "
	"sed '$d'; exit 0 ;;\n"
	"\t-*) echo \"container.sh: unknown option $1\" >&2; exit 2 ;;\n"
	"\t*) break ;;\n"
	"\tesac\n"
	"\tshift\n"
	"done\n"
	"cmd=${1:-}\n"
	"[ $# -gt 0 ] && shift\n"
	"if [ \"$(id -u)\" = 0 ] && [ -z \"$root\" ]; then\n"
	"\techo \"container.sh: run it as yourself, not as root (or pass "
	"--with-root)\" >&2\n"
	"\texit 2\n"
	"fi\n"
	"case $device in\n";

static const char container_tail[] =
	"*) echo \"container.sh: no device kind '$device'\" >&2; exit 2 ;;\n"
	"esac\n"
	"docker=${DOCKER:-docker}\n"
	"run() {\n"
	"\tif [ -n \"$dry\" ]; then echo \"$*\"; else \"$@\"; fi\n"
	"}\n"
	"it=-i\n"
	"if [ -t 0 ] && [ -t 1 ]; then it=-it; fi\n"
	"case $cmd in\n"
	"start)\n"
	"\t[ \"${1:-}\" = -- ] && shift\n"
	"\tif [ -z \"$root\" ]; then\n"
	"\t\tuser=$(id -un)\n"
	"\t\tset -- -u \"$(id -u):$(id -g)\" -e USER=\"$user\" "
	"-e HOME=\"$HOME\" \\\n"
	"\t\t\t-v /etc/passwd:/etc/passwd:ro -v /etc/group:/etc/group:ro \\\n"
	"\t\t\t-v \"$HOME:$HOME\" \"$@\"\n"
	"\tfi\n"
	"\teval \"set -- $flags \\\"\\$@\\\"\"\n"
	"\trun \"$docker\" run -d -i --name \"$name\" --hostname \"$name\" \\\n"
	"\t\t-v \"$src:%s\" -w %s \"$@\" \"$image\" sleep infinity\n"
	"\t;;\n"
	"into)\n"
	"\t[ $# -gt 0 ] || set -- bash\n"
	"\tif [ -z \"$root\" ]; then\n"
	"\t\tset -- -u \"$(id -u):$(id -g)\" -e HOME=\"$HOME\" \"$name\" \"$@\"\n"
	"\telse\n"
	"\t\tset -- \"$name\" \"$@\"\n"
	"\tfi\n"
	"\trun \"$docker\" exec $it \"$@\"\n"
	"\t;;\n"
	"stop) run \"$docker\" rm -f \"$name\" ;;\n"
	"*) echo \"container.sh: say start, into or stop (see --help)\" >&2; "
	"exit 2 ;;\n"
	"esac\n";

int pp_script_container(const struct pp_spec *spec,
			const struct pp_docker_opts *o, struct strbuf *out,
			struct pp_err *err)
{
	struct pp_strlist tags = PP_STRLIST_INIT;
	struct strbuf kinds = STRBUF_INIT, flags = STRBUF_INIT;
	const struct pp_axis *devices = NULL;

	for (size_t a = 0; a < spec->nr_axes && !devices; a++)
		for (size_t i = 0; i < spec->axes[a].nr_values; i++)
			if (spec->axes[a].values[i].container.dev_base ||
			    spec->axes[a].values[i].container.run_flags.nr)
				devices = &spec->axes[a];
	if (pp_docker_tags(spec, o, NULL, &tags, err) < 0)
		return -1;
	for (size_t i = 0; devices && i < devices->nr_values; i++)
		strbuf_addf(&kinds, "%s%s", i ? ", " : "",
			    devices->values[i].name);
	strbuf_addf(out, container_head, spec->name, pp_mount(spec),
		    kinds.len ? kinds.buf : "none");
	strbuf_addstr(out, "image=");
	pp_shell_quote(out, tags.items[tags.nr - 1]);
	strbuf_addch(out, '\n');
	strbuf_addf(out, container_body, spec->name,
		    devices ? devices->values[0].name : "none");
	for (size_t i = 0; devices && i < devices->nr_values; i++) {
		const struct pp_strlist *f =
			&devices->values[i].container.run_flags;

		strbuf_reset(&flags);
		for (size_t k = 0; k < f->nr; k++) {
			if (k)
				strbuf_addch(&flags, ' ');
			dquote(&flags, f->items[k]);
		}
		strbuf_addf(out, "%s) flags=", devices->values[i].name);
		pp_shell_quote(out, flags.buf);
		strbuf_addstr(out, " ;;\n");
	}
	if (!devices)
		strbuf_addstr(out, "none) flags= ;;\n");
	strbuf_addf(out, container_tail, pp_mount(spec), pp_mount(spec));
	pp_strlist_release(&tags);
	strbuf_release(&kinds);
	strbuf_release(&flags);
	return 0;
}
