/* padpack docker: the text of the Dockerfiles (production, development,
 * application). Each instruction is written so that both dockerfilelint
 * and dockerfile-utils find nothing in it: tagged FROM, apt-get install
 * with -y and --no-install-recommends, lists removed in the same RUN.
 * Layering: calls down into docker-names.c only; docker-context.c calls
 * it, and it never calls docker-context.c or docker-scripts.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dockerfile.h"
#include "dockerint.h"
#include "proc.h"
#include "xalloc.h"

/* Where a production build sees its context (a bind mount, not a layer);
 * an existing empty directory, so that not even the mount point is left. */
#define CTX "/mnt"

/* Packages padpack needs to build itself in the development image (the
 * build part of scripts/install-deps.sh) and the tools its steps run. */
static const char *const padpack_build_deps[] = {
	"make", "gcc", "pkg-config", "libarchive-dev", "zlib1g-dev",
	"liblzma-dev", "libssl-dev", "libconfig-dev", "libelf-dev",
	"libzstd-dev", "libzydis-dev", "libjansson-dev", "scdoc", "binutils",
	"dpkg-dev", "file",
	"ca-certificates", NULL,
};

/* A string in double quotes as JSON has it (exec forms); with dollar,
 * a '$' is escaped too, for instructions the builder expands (LABEL). */
void pp_df_quote(struct strbuf *out, const char *s, int dollar)
{
	strbuf_addch(out, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\' || (dollar && *s == '$'))
			strbuf_addch(out, '\\');
		strbuf_addch(out, *s);
	}
	strbuf_addch(out, '"');
}

/* INSTR ["a", "b"] */
void pp_df_exec(struct strbuf *out, const char *instr,
		const struct pp_strlist *words)
{
	strbuf_addf(out, "%s [", instr);
	for (size_t i = 0; i < words->nr; i++) {
		if (i)
			strbuf_addstr(out, ", ");
		pp_df_quote(out, words->items[i], 0);
	}
	strbuf_addstr(out, "]\n");
}

/* RUN [flags] cmd1 && cmd2 ..., one command a line. */
void pp_df_run(struct strbuf *out, const char *flags,
	       const struct pp_strlist *cmds)
{
	strbuf_addstr(out, "RUN ");
	if (flags)
		strbuf_addf(out, "%s \\\n    ", flags);
	for (size_t i = 0; i < cmds->nr; i++)
		strbuf_addf(out, "%s%s", i ? " \\\n    && " : "", cmds->items[i]);
	strbuf_addch(out, '\n');
}

/* Words after a command, wrapped at about 72 columns. */
void pp_df_words(struct strbuf *cmd, const struct pp_strlist *words)
{
	const char *nl = strrchr(cmd->buf, '\n');
	/* the RUN and its indent come before the command */
	size_t col = 8 + strlen(nl ? nl + 1 : cmd->buf);

	for (size_t i = 0; i < words->nr; i++) {
		size_t len = strlen(words->items[i]);

		if (col + len > 72) {
			strbuf_addstr(cmd, " \\\n        ");
			col = 8;
		} else {
			strbuf_addch(cmd, ' ');
			col++;
		}
		pp_shell_quote(cmd, words->items[i]);
		col += len;
	}
}

/* The apt mirror's sed expression over every apt source list. */
static void mirror_cmd(const struct pp_spec *spec,
		       const struct pp_docker_opts *o, struct pp_strlist *cmds)
{
	const char *expr = o->apt_mirror ? o->apt_mirror : spec->image.apt_mirror;
	struct strbuf sb = STRBUF_INIT;

	if (!expr || !*expr)
		return;
	strbuf_addstr(&sb, "find /etc/apt/ -name '*.list' -o -name '*.sources' "
		      "| xargs -r sed -i -e ");
	pp_shell_quote(&sb, expr);
	pp_strlist_push_owned(cmds, strbuf_detach(&sb, NULL));
}

/* apt-get update, install the words, clean up: in one RUN command list. */
static void apt_install(const struct pp_spec *spec,
			const struct pp_docker_opts *o, const char *options,
			const struct pp_strlist *pkgs, struct pp_strlist *cmds)
{
	struct strbuf sb = STRBUF_INIT;

	mirror_cmd(spec, o, cmds);
	pp_strlist_push(cmds, "apt-get update");
	strbuf_addf(&sb, "apt-get install %s-y --no-install-recommends",
		    options ? options : "");
	pp_df_words(&sb, pkgs);
	pp_strlist_push_owned(cmds, strbuf_detach(&sb, NULL));
}

/* LABEL lines: the OCI annotations, then the variant's. */
static void add_label(struct strbuf *out, const char *key, const char *value)
{
	if (!value)
		return;
	strbuf_addf(out, " \\\n      %s=", key);
	pp_df_quote(out, value, 1);
}

void pp_df_labels(struct strbuf *out, const struct pp_spec *spec,
		  const struct pp_docker_opts *o, const char *title,
		  const char *base, const struct pp_variant *v)
{
	const char *prefix = spec->image.label_prefix ?
			     spec->image.label_prefix : "io.padpack";
	struct strbuf key = STRBUF_INIT;

	strbuf_addstr(out, "LABEL org.opencontainers.image.title=");
	pp_df_quote(out, title, 1);
	add_label(out, "org.opencontainers.image.description", spec->summary);
	add_label(out, "org.opencontainers.image.version", o->version);
	add_label(out, "org.opencontainers.image.revision", o->revision);
	add_label(out, "org.opencontainers.image.source", spec->homepage);
	add_label(out, "org.opencontainers.image.url", spec->homepage);
	add_label(out, "org.opencontainers.image.authors", spec->maintainer);
	add_label(out, "org.opencontainers.image.created", o->created);
	add_label(out, "org.opencontainers.image.base.name", base);
	if (v) {
		strbuf_addf(&key, "%s.variant", prefix);
		add_label(out, key.buf, v->name);
	}
	for (size_t a = 0; v && a < spec->nr_axes; a++) {
		strbuf_reset(&key);
		strbuf_addf(&key, "%s.%s", prefix, spec->axes[a].name);
		add_label(out, key.buf, v->values[a]->name);
	}
	for (size_t i = 0; i < spec->image.labels.nr; i++) {
		const char *kv = spec->image.labels.items[i];
		char *k = xstrndup(kv, (size_t)(strchr(kv, '=') - kv));

		add_label(out, k, strchr(kv, '=') + 1);
		free(k);
	}
	strbuf_addch(out, '\n');
	strbuf_release(&key);
}

/* ENV lines of the device kinds of v (container.env). */
static void device_env(struct strbuf *out, const struct pp_spec *spec,
		       const struct pp_variant *v)
{
	for (size_t a = 0; v && a < spec->nr_axes; a++) {
		const struct pp_strlist *env = &v->values[a]->container.env;

		for (size_t i = 0; i < env->nr; i++) {
			const char *eq = strchr(env->items[i], '=');

			/* '$' stays: the builder expands ${PATH} from the
			 * base image's environment, as intended */
			strbuf_addf(out, "ENV %.*s=", (int)(eq - env->items[i]),
				    env->items[i]);
			pp_df_quote(out, eq + 1, 0);
			strbuf_addch(out, '\n');
		}
	}
}

/* The base of v's production image: its device value's container.base. */
const char *pp_prod_base(const struct pp_spec *spec,
			 const struct pp_variant *v)
{
	const char *base = NULL;

	for (size_t a = 0; a < spec->nr_axes; a++)
		if (v->values[a]->container.base)
			base = v->values[a]->container.base;
	return base;
}

const char *pp_image_user(const struct pp_spec *spec)
{
	return spec->image.user ? spec->image.user : spec->name;
}

enum pp_records pp_prod_records(const struct pp_spec *spec,
				const struct pp_docker_opts *o)
{
	if (o->records != PP_RECORDS_UNSET)
		return o->records;
	if (spec->image.records != PP_RECORDS_UNSET)
		return spec->image.records;
	/* the conventional image: what derived images apt-get install
	 * finds installed, dpkg -l lists; dpkg's database is small beside
	 * real libraries (doc/images-default.md) */
	return PP_RECORDS_DPKG;
}

/* Where the install stage gathers what the image gets (status.d mode). */
#define STAGE "/staging"
#define STATUS_D STAGE "/var/lib/dpkg/status.d"
/* The packages installed, "PKG[:ARCH] VERSION" a line, sorted: the list
 * before apt runs against the one after gives what apt added (or
 * changed), archive packages it pulled in included. */
#define PKG_VERSIONS "dpkg-query -W -f '${binary:Package} ${Version}\\n' | sort"

/* apt-get update and install of the variant's packages, the lists and
 * logs removed; with status.d, the list of packages before goes first. */
static void install_cmds(const struct pp_spec *spec,
			 const struct pp_docker_opts *o,
			 const struct pp_prod_input *in, enum pp_records rec,
			 struct pp_strlist *cmds)
{
	struct pp_strlist pkgs = PP_STRLIST_INIT;

	for (size_t i = 0; i < in->debs.nr; i++)
		pp_strlist_pushf(&pkgs, CTX "/debs/%s",
				 strrchr(in->debs.items[i], '/') ?
				 strrchr(in->debs.items[i], '/') + 1 :
				 in->debs.items[i]);
	if (!in->debs.nr)
		pp_strlist_extend(&pkgs, &in->names);
	if (rec == PP_RECORDS_STATUS_D)
		pp_strlist_push(cmds, PKG_VERSIONS " >/tmp/pkgs-before");
	apt_install(spec, o, "-c " CTX "/apt.conf ", &pkgs, cmds);
	/* what apt, dpkg, debconf and ldconfig keep only for themselves */
	pp_strlist_push(cmds, "rm -rf /var/lib/apt/lists/* /var/log/apt/* "
			"/var/log/dpkg.log /var/lib/dpkg/*-old "
			"/var/cache/debconf/*-old /var/cache/ldconfig/aux-cache");
	pp_strlist_release(&pkgs);
}

/* status.d: copies into STAGE each file, symlink and directory that the
 * packages apt added own (the directories they lie in resolved, so that
 * /lib/x/y of a package lands as usr/lib/x/y on a merged-/usr base), and
 * writes their records. Files a dpkg path-exclude of the base left out
 * are in neither the stage nor the md5sums. */
static void stage_cmds(const struct pp_spec *spec,
		       const struct pp_prod_input *in, struct pp_strlist *cmds)
{
	pp_strlist_push(cmds, PKG_VERSIONS " | comm -13 /tmp/pkgs-before - "
			"| cut -d ' ' -f 1 >/tmp/pkgs-added");
	pp_strlist_push(cmds, "dpkg-query -L $(cat /tmp/pkgs-added) "
			"| sed -n 's|^/||p' | while IFS= read -r f; do \\\n"
			"        if [ \"$f\" != . ] && { [ -e \"/$f\" ] "
			"|| [ -L \"/$f\" ]; }; then \\\n"
			"        g=/$f; d=$(readlink -f \"${g%/*}/\"); d=${d#/}; "
			"printf '%s\\n' \"${d:+$d/}${g##*/}\"; fi; done "
			">/tmp/files");
	if (in->sources)
		pp_strlist_pushf(cmds, "printf '%%s\\n' etc/apt/sources.list.d/"
				 "%s.sources %s >>/tmp/files", spec->name,
				 in->keyring_dest + 1);
	/* a package's own ld.so.conf.d entry needs a cache that has it;
	 * otherwise the base's serves: the libraries in the default
	 * directories (/usr/lib/x86_64-linux-gnu, ...) are found without */
	pp_strlist_push(cmds, "if grep -q '^etc/ld\\.so\\.conf\\.d/.' /tmp/files; "
			"then ldconfig && echo etc/ld.so.cache >>/tmp/files; fi");
	pp_strlist_push(cmds, "mkdir -p " STATUS_D);
	pp_strlist_push(cmds, "sort -u /tmp/files | tar -C / -cf - --no-recursion "
			"--verbatim-files-from -T - | tar -C " STAGE " -xf -");
	pp_strlist_push(cmds, "for p in $(cat /tmp/pkgs-added); do n=${p%%:*}; "
			"i=/var/lib/dpkg/info/$p.md5sums; \\\n"
			"        dpkg-query -s \"$p\" >\"" STATUS_D "/$n\" "
			"|| exit 1; \\\n"
			"        if [ -f \"$i\" ]; then while IFS= read -r l; do "
			"if [ -f \"/${l#*  }\" ]; then printf '%s\\n' \"$l\"; "
			"fi; done \\\n"
			"        <\"$i\" >\"" STATUS_D "/$n.md5sums\"; fi; done");
}

/* The user the image runs as, and the smoke test. */
static void user_cmds(const struct pp_spec *spec, struct pp_strlist *cmds)
{
	const char *user = pp_image_user(spec);
	long uid = spec->image.uid;
	struct strbuf sb = STRBUF_INIT;

	pp_strlist_pushf(cmds, "groupadd --gid %ld %s", uid, user);
	/* a home without the skeleton's shell files, which nothing here runs */
	pp_strlist_pushf(cmds, "useradd --no-log-init --uid %ld --gid %ld "
			 "--no-create-home --home-dir /home/%s --shell /bin/sh %s",
			 uid, uid, user, user);
	pp_strlist_pushf(cmds, "install -d -m 0755 -o %ld -g %ld /home/%s", uid,
			 uid, user);
	pp_strlist_push(cmds, "rm -f /etc/passwd- /etc/group- /etc/shadow- "
			"/etc/gshadow-");
	if (spec->image.smoke.nr) {
		for (size_t i = 0; i < spec->image.smoke.nr; i++) {
			if (i)
				strbuf_addch(&sb, ' ');
			pp_shell_quote(&sb, spec->image.smoke.items[i]);
		}
		pp_strlist_push_owned(cmds, strbuf_detach(&sb, NULL));
	}
}

/* The repository's key and source, for apt to install from it. */
static void repo_copies(const struct pp_spec *spec,
			const struct pp_prod_input *in, struct strbuf *out)
{
	if (!in->sources)
		return;
	strbuf_addf(out, "COPY %s %s\n", strrchr(in->keyring_dest, '/') + 1,
		    in->keyring_dest);
	strbuf_addf(out, "COPY %s.sources /etc/apt/sources.list.d/%s.sources\n",
		    spec->name, spec->name);
}

/* dpkg: the install, the user and the smoke test, in one layer. */
static void prod_dpkg(const struct pp_spec *spec,
		      const struct pp_docker_opts *o,
		      const struct pp_prod_input *in, const char *base,
		      struct strbuf *out)
{
	struct pp_strlist cmds = PP_STRLIST_INIT;

	strbuf_addf(out, "FROM %s\n\nARG DEBIAN_FRONTEND=noninteractive\n",
		    base);
	repo_copies(spec, in, out);
	install_cmds(spec, o, in, PP_RECORDS_DPKG, &cmds);
	user_cmds(spec, &cmds);
	strbuf_addstr(out, "# One layer: the packages (read from the context "
		      "through a bind mount, so\n# they never become a layer "
		      "of their own), the user, and the smoke test.\n");
	pp_df_run(out, "--mount=type=bind,source=.,target=" CTX, &cmds);
	pp_strlist_release(&cmds);
}

/* status.d: apt installs in a stage of its own; the image is the base
 * plus what the packages brought and their records, then the user and
 * the smoke test. */
static void prod_status_d(const struct pp_spec *spec,
			  const struct pp_docker_opts *o,
			  const struct pp_prod_input *in, const char *base,
			  struct strbuf *out)
{
	struct pp_strlist cmds = PP_STRLIST_INIT;

	strbuf_addf(out, "FROM %s AS install\n\nARG DEBIAN_FRONTEND="
		    "noninteractive\n", base);
	repo_copies(spec, in, out);
	install_cmds(spec, o, in, PP_RECORDS_STATUS_D, &cmds);
	stage_cmds(spec, in, &cmds);
	strbuf_addstr(out, "# The packages (read from the context through a "
		      "bind mount), installed here\n# only to collect into "
		      STAGE " the files of those apt added, each one's\n# "
		      "status stanza as /var/lib/dpkg/status.d/PKG and its "
		      "md5sums as PKG.md5sums.\n");
	pp_df_run(out, "--mount=type=bind,source=.,target=" CTX, &cmds);
	pp_strlist_release(&cmds);
	strbuf_addf(out, "\nFROM %s\n\n# The packages' files and records: "
		    "scanners (Trivy, Syft, Grype) read\n# status.d; apt and "
		    "dpkg here do not know these packages. No ldconfig: the\n"
		    "# libraries lie in the loader's default directories (a "
		    "package with an\n# ld.so.conf.d entry brings its "
		    "ld.so.cache from the stage).\n"
		    "COPY --from=install " STAGE "/ /\n", base);
	user_cmds(spec, &cmds);
	strbuf_addstr(out, "# The user and the smoke test.\n");
	pp_df_run(out, NULL, &cmds);
	pp_strlist_release(&cmds);
}

void pp_dockerfile_prod(const struct pp_spec *spec,
			const struct pp_docker_opts *o,
			const struct pp_prod_input *in, struct strbuf *out)
{
	const struct pp_variant *v = in->variant;
	const char *base = pp_prod_base(spec, v);
	enum pp_records rec = pp_prod_records(spec, o);
	long uid = spec->image.uid;

	strbuf_addf(out, "# The production image of %s %s, variant %s: its "
		    "runtime packages\n# (", spec->name, o->version, v->name);
	for (size_t i = 0; i < in->names.nr; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "", in->names.items[i]);
	strbuf_addf(out, ")\n# on %s, run as the user %s.\n",
		    base, pp_image_user(spec));
	if (rec == PP_RECORDS_STATUS_D)
		strbuf_addstr(out, "# Records status.d: only the files of the "
			      "packages apt added, and per package\n# "
			      "/var/lib/dpkg/status.d/PKG and PKG.md5sums, "
			      "not dpkg's database (images\n# that apt-get "
			      "install more on this one work; apt would "
			      "install these again).\n");
	else
		strbuf_addstr(out, "# Records dpkg: installed in this image, "
			      "in dpkg's database.\n");
	strbuf_addstr(out, "# Written by padpack docker prod; RUN --mount needs "
		      "BuildKit (DOCKER_BUILDKIT=1)\n# or podman.\n");
	if (rec == PP_RECORDS_STATUS_D)
		prod_status_d(spec, o, in, base, out);
	else
		prod_dpkg(spec, o, in, base, out);
	device_env(out, spec, v);
	strbuf_addf(out, "USER %ld:%ld\nWORKDIR /home/%s\n", uid, uid,
		    pp_image_user(spec));
	if (spec->image.entrypoint.nr)
		pp_df_exec(out, "ENTRYPOINT", &spec->image.entrypoint);
	if (spec->image.cmd.nr)
		pp_df_exec(out, "CMD", &spec->image.cmd);
	pp_df_labels(out, spec, o, spec->name, base, v);
}

/* ---- the development image ---------------------------------------------- */

static void dev_packages(const struct pp_spec *spec, struct pp_strlist *pkgs)
{
	pp_strlist_extend(pkgs, &spec->image.dev_packages);
	for (const char *const *p = padpack_build_deps; *p; p++)
		if (pp_strlist_find(pkgs, *p) < 0)
			pp_strlist_push(pkgs, *p);
}

static void woboq(const struct pp_spec *spec, struct strbuf *out)
{
	strbuf_addstr(out, "# The woboq code browser where it can be installed: "
		      "from its git repository,\n# when given: docker build "
		      "--build-arg WOBOQ_REPO=URL\n");
	strbuf_addstr(out, "ARG WOBOQ_REPO=");
	if (spec->image.woboq)
		pp_df_quote(out, spec->image.woboq, 1);
	strbuf_addstr(out, "\nRUN if [ -n \"$WOBOQ_REPO\" ]; then \\\n"
		      "        apt-get update \\\n"
		      "        && apt-get install -y --no-install-recommends "
		      "llvm-dev libclang-dev \\\n"
		      "        && git clone --depth 1 \"$WOBOQ_REPO\" /tmp/woboq \\\n"
		      "        && cmake -S /tmp/woboq -B /tmp/woboq/build "
		      "-DCMAKE_BUILD_TYPE=Release \\\n"
		      "        && cmake --build /tmp/woboq/build --parallel "
		      "\"$(nproc)\" \\\n"
		      "        && cmake --install /tmp/woboq/build \\\n"
		      "        && rm -rf /tmp/woboq /var/lib/apt/lists/*; \\\n"
		      "    fi\n");
}

static void padpack_itself(struct strbuf *out)
{
	struct pp_strlist cmds = PP_STRLIST_INIT;

	strbuf_addstr(out, "# padpack itself, built from its source (its data, "
		      "control templates and\n# scripts, stays beside it)\n"
		      "COPY padpack /usr/local/src/padpack\n");
	pp_strlist_push(&cmds, "make -C /usr/local/src/padpack -j\"$(nproc)\" "
			"padpack man");
	pp_strlist_push(&cmds, "ln -s /usr/local/src/padpack/padpack "
			"/usr/local/bin/padpack");
	pp_strlist_push(&cmds, "install -D -m 0644 -t /usr/local/share/man/man1 "
			"/usr/local/src/padpack/build/man/man1/*.1");
	pp_strlist_push(&cmds, "install -D -m 0644 -t /usr/local/share/man/man5 "
			"/usr/local/src/padpack/build/man/man5/*.5");
	pp_strlist_push(&cmds, "rm -rf /usr/local/src/padpack/build");
	pp_df_run(out, NULL, &cmds);
	strbuf_addstr(out, "ENV PADPACK_DATADIR=/usr/local/src/padpack\n");
	pp_strlist_release(&cmds);
}

void pp_dockerfile_dev(const struct pp_spec *spec,
		       const struct pp_docker_opts *o,
		       const struct pp_dev_input *in, struct strbuf *out)
{
	struct pp_strlist cmds = PP_STRLIST_INIT, pkgs = PP_STRLIST_INIT;
	struct pp_strlist cmd = PP_STRLIST_INIT;

	strbuf_addf(out, "# The development image of %s %s: compilers, CMake, "
		    "Python, Sphinx, an SSH\n# server (keys only), ccache, gdb "
		    "and padpack. Its default command builds the\n# source "
		    "mounted at %s into %s/build: the binaries, the .debs and the\n"
		    "# production Dockerfiles; GPU, AVX and TEST (or WITH_GPU, "
		    "WITH_AVX,\n# WITH_TESTING) choose the variants:\n"
		    "#   docker run --rm -v $PWD:%s -e GPU=OFF -e AVX=ON -e TEST=ON "
		    "IMAGE\n# Written by padpack docker dev.\n", spec->name,
		    o->version, pp_mount(spec), pp_mount(spec), pp_mount(spec));
	strbuf_addf(out, "FROM %s\n\nARG DEBIAN_FRONTEND=noninteractive\n",
		    in->base);
	dev_packages(spec, &pkgs);
	apt_install(spec, o, NULL, &pkgs, &cmds);
	pp_strlist_push(&cmds, "rm -rf /var/lib/apt/lists/*");
	pp_df_run(out, NULL, &cmds);
	woboq(spec, out);
	padpack_itself(out);
	strbuf_addf(out, "COPY spec %s\n", PP_DEV_SPEC_DIR);
	strbuf_addstr(out, "COPY padpack-dev-build padpack-sshd /usr/local/bin/\n"
		      "# SSH for remote terminals: public keys only (no "
		      "password, none baked in);\n# each container makes its "
		      "own host keys (padpack-sshd)\n"
		      "COPY sshd_config /etc/ssh/sshd_config.d/padpack.conf\n"
		      "RUN rm -f /etc/ssh/ssh_host_* && mkdir -p /run/sshd\n");
	strbuf_addf(out, "ENV PADPACK_SPEC=%s/%s\n", PP_DEV_SPEC_DIR,
		    in->spec_file);
	strbuf_addf(out, "WORKDIR %s\nEXPOSE 22\n", pp_mount(spec));
	pp_strlist_push(&cmd, "padpack-dev-build");
	pp_df_exec(out, "CMD", &cmd);
	pp_df_labels(out, spec, o, spec->name, in->base, NULL);
	pp_strlist_release(&cmds);
	pp_strlist_release(&pkgs);
	pp_strlist_release(&cmd);
}

/* ---- application images ------------------------------------------------- */

static void app_packages(const struct pp_spec *spec,
			 const struct pp_docker_opts *o,
			 const struct pp_app *app, struct strbuf *out)
{
	struct pp_strlist cmds = PP_STRLIST_INIT, pkgs = PP_STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT;

	pp_strlist_extend(&pkgs, &app->apt);
	if (app->pip.nr && pp_strlist_find(&pkgs, "python3-venv") < 0)
		pp_strlist_push(&pkgs, "python3-venv");
	if (pkgs.nr) {
		apt_install(spec, o, NULL, &pkgs, &cmds);
		pp_strlist_push(&cmds, "rm -rf /var/lib/apt/lists/*");
	}
	if (app->pip.nr) {
		pp_strlist_pushf(&cmds, "python3 -m venv --system-site-packages "
				 "/opt/%s", app->name);
		strbuf_addf(&sb, "/opt/%s/bin/pip install --no-cache-dir",
			    app->name);
		pp_df_words(&sb, &app->pip);
		pp_strlist_push_owned(&cmds, strbuf_detach(&sb, NULL));
	}
	if (cmds.nr)
		pp_df_run(out, NULL, &cmds);
	if (app->pip.nr)
		strbuf_addf(out, "ENV PATH=/opt/%s/bin:$PATH\n", app->name);
	pp_strlist_release(&cmds);
	pp_strlist_release(&pkgs);
}

void pp_dockerfile_app(const struct pp_spec *spec,
		       const struct pp_docker_opts *o, const struct pp_app *app,
		       const char *from, struct strbuf *out)
{
	long uid = spec->image.uid;

	strbuf_addf(out, "# The %s image: an application on the production "
		    "image %s.\n# Written by padpack docker app.\n"
		    "FROM %s\n\nUSER root\nARG DEBIAN_FRONTEND=noninteractive\n",
		    app->name, from, from);
	app_packages(spec, o, app, out);
	for (size_t i = 0; i < app->copy.nr; i++) {
		const char *colon = strchr(app->copy.items[i], ':');

		strbuf_addstr(out, "COPY ");
		pp_app_copy_name(out, i, app->copy.items[i]);
		strbuf_addf(out, " %s\n", colon + 1);
	}
	for (size_t i = 0; i < app->env.nr; i++) {
		const char *eq = strchr(app->env.items[i], '=');

		strbuf_addf(out, "ENV %.*s=", (int)(eq - app->env.items[i]),
			    app->env.items[i]);
		pp_df_quote(out, eq + 1, 0);
		strbuf_addch(out, '\n');
	}
	strbuf_addf(out, "USER %ld:%ld\n", uid, uid);
	for (size_t i = 0; i < app->expose.nr; i++)
		strbuf_addf(out, "EXPOSE %s\n", app->expose.items[i]);
	if (app->cmd.nr) {
		strbuf_addstr(out, "ENTRYPOINT []\n");
		pp_df_exec(out, "CMD", &app->cmd);
	}
	pp_df_labels(out, spec, o, app->name, from, NULL);
}
