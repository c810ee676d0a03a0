/* padpack docker: names, the text of the Dockerfiles and scripts, and the
 * spec's docker settings. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../src/lib/docker-scripts.h"
#include "../../src/lib/dockerfile.h"
#include "../../src/lib/dockerint.h"
#include "../../src/lib/xalloc.h"
#include "test.h"

#define HEAD \
	"name = \"demo\";\n" \
	"maintainer = \"A B <a@b.org>\";\n" \
	"homepage = \"https://example.org/\";\n" \
	"summary = \"a demo\";\n" \
	"description = \"A demo.\";\n" \
	"axes = ( { name = \"device\"; values = (\n" \
	"  { name = \"cpu\"; suffix = \"\"; } ); } );\n"

static const struct pp_docker_opts opts = { "0.11.0", "abc123", NULL, NULL,
					    NULL, PP_RECORDS_UNSET };

static int load(struct t_ctx *t, struct pp_spec *spec)
{
	struct pp_err err;
	int rc;

	pp_err_init(&err);
	rc = pp_spec_load("pkg/paddle-separate.cfg", spec, &err);
	if (rc)
		t_fail(t, __FILE__, __LINE__, "%s", err.msg);
	pp_err_release(&err);
	return rc;
}

static const struct pp_variant *variant(const struct pp_spec *spec,
					const char *name)
{
	return pp_spec_find_variant(spec, name);
}

/* What no emitted Dockerfile or script may hold. */
static void no_heredoc(struct t_ctx *t, const char *text)
{
	if (strstr(text, "<<"))
		t_fail(t, __FILE__, __LINE__, "a heredoc in:\n%s", text);
	if (strstr(text, "# syntax=") || strstr(text, "#syntax="))
		t_fail(t, __FILE__, __LINE__, "a syntax line in:\n%s", text);
	if (strstr(text, "proxy") || strstr(text, "PASSWORD") ||
	    strstr(text, "chpasswd"))
		t_fail(t, __FILE__, __LINE__, "a proxy or password in:\n%s", text);
}

#define HAS(text, s) do { if (!strstr((text), (s))) t_fail(t, __FILE__, \
	__LINE__, "lacks '%s':\n%s", (s), (text)); } while (0)
#define LACKS(text, s) do { if (strstr((text), (s))) t_fail(t, __FILE__, \
	__LINE__, "has '%s':\n%s", (s), (text)); } while (0)

static void tags(struct t_ctx *t)
{
	static const char *const want[][2] = {
		{ "cpu-avx", "docker.io/paddlepaddle/paddle:0.11.0" },
		{ "cpu-noavx", "docker.io/paddlepaddle/paddle:0.11.0-noavx" },
		{ "gpu-avx", "docker.io/paddlepaddle/paddle:0.11.0-gpu" },
		{ "gpu-noavx", "docker.io/paddlepaddle/paddle:0.11.0-gpu-noavx" },
	};
	struct pp_strlist tl = PP_STRLIST_INIT;
	struct pp_docker_opts mirror = opts;
	struct pp_spec spec;
	struct pp_err err;

	if (load(t, &spec))
		return;
	pp_err_init(&err);
	for (size_t i = 0; i < 4; i++) {
		CHECK_INT(pp_docker_tags(&spec, &opts, variant(&spec, want[i][0]),
					 &tl, &err), 0);
		CHECK_STR(tl.items[0], want[i][1]);
		pp_strlist_release(&tl);
	}
	pp_docker_tags(&spec, &opts, variant(&spec, "gpu-noavx"), &tl, &err);
	CHECK_INT(tl.nr, 2);
	CHECK_STR(tl.items[1], "docker.io/paddlepaddle/paddle:latest-gpu-noavx");
	pp_strlist_release(&tl);
	pp_docker_tags(&spec, &opts, NULL, &tl, &err);
	CHECK_INT(tl.nr, 3);
	CHECK_STR(tl.items[0], "docker.io/paddlepaddle/paddle:0.11.0-dev");
	CHECK_STR(tl.items[1], "docker.io/paddlepaddle/paddle:latest-dev");
	CHECK_STR(tl.items[2], "paddle:0.11.0-dev");
	pp_strlist_release(&tl);
	mirror.registry = "docker.paddlepaddle.org";
	pp_docker_tags(&spec, &mirror, variant(&spec, "cpu-noavx"), &tl, &err);
	CHECK_STR(tl.items[0], "docker.paddlepaddle.org/paddle:0.11.0-noavx");
	pp_strlist_release(&tl);
	mirror.registry = "";
	pp_docker_tags(&spec, &mirror, variant(&spec, "gpu-avx"), &tl, &err);
	CHECK_STR(tl.items[0], "paddle:0.11.0-gpu");
	pp_strlist_release(&tl);
	CHECK_INT(pp_docker_app_tags(&spec, &opts, &spec.apps[0],
				     "localhost:5000/paddle:0.11.0-gpu", &tl,
				     &err), 0);
	CHECK_STR(tl.items[0], "docker.io/paddlepaddle/book:0.11.0-gpu");
	pp_strlist_release(&tl);
	CHECK_INT(pp_docker_app_tags(&spec, &opts, &spec.apps[0],
				     "localhost:5000/paddle", &tl, &err), -1);
	CHECK_INT(err.code, PP_EXIT_USAGE);
	pp_strlist_release(&tl);
	pp_err_release(&err);
	pp_spec_release(&spec);
}

/* What the final image of either mode has: user, entry point, labels,
 * no compiler, no -dev package. */
static void prod_common(struct t_ctx *t, const char *text)
{
	no_heredoc(t, text);
	HAS(text, "&& paddle --version\n");
	HAS(text, "\nUSER 1001:1001\n");
	HAS(text, "\nENTRYPOINT [\"paddle\"]\n");
	HAS(text, "org.opencontainers.image.version=\"0.11.0\"");
	HAS(text, "org.opencontainers.image.revision=\"abc123\"");
	HAS(text, "org.opencontainers.image.source=\"https://github.com/"
		  "PaddlePaddle/Paddle\"");
	HAS(text, "org.paddlepaddle.variant=\"cpu-noavx\"");
	HAS(text, "org.paddlepaddle.isa=\"noavx\"");
	HAS(text, "/mnt/debs/libpaddle1-noavx_0.11.0-1_amd64.deb");
	HAS(text, "&& rm -rf /var/lib/apt/lists/*");
	LACKS(text, "-dev ");
	LACKS(text, "-dev_");
	LACKS(text, "gcc");
}

/* records status.d (--records, image.records): an install stage, then
 * the base with its files. */
static void prod_text(struct t_ctx *t)
{
	struct pp_docker_opts sd = opts, mirror;
	struct pp_prod_input in = { 0 };
	struct strbuf sb = STRBUF_INIT;
	struct pp_spec spec;
	const char *final;

	if (load(t, &spec))
		return;
	in.variant = variant(&spec, "cpu-noavx");
	pp_strlist_push(&in.debs, "/x/libpaddle1-noavx_0.11.0-1_amd64.deb");
	pp_strlist_push(&in.names, "libpaddle1-noavx");
	sd.records = PP_RECORDS_STATUS_D;
	mirror = sd;
	CHECK_INT(pp_prod_records(&spec, &sd), PP_RECORDS_STATUS_D);
	pp_dockerfile_prod(&spec, &sd, &in, &sb);
	prod_common(t, sb.buf);
	HAS(sb.buf, "\nFROM debian:bookworm-slim AS install\n");
	HAS(sb.buf, "RUN --mount=type=bind,source=.,target=/mnt \\\n"
		    "    dpkg-query -W -f '${binary:Package} ${Version}\\n' "
		    "| sort >/tmp/pkgs-before \\\n    && apt-get update \\\n"
		    "    && apt-get install -c /mnt/apt.conf -y "
		    "--no-install-recommends");
	HAS(sb.buf, "| comm -13 /tmp/pkgs-before - ");
	HAS(sb.buf, "dpkg-query -L $(cat /tmp/pkgs-added)");
	HAS(sb.buf, "tar -C / -cf - --no-recursion --verbatim-files-from -T - "
		    "| tar -C /staging -xf -");
	HAS(sb.buf, "dpkg-query -s \"$p\" >\"/staging/var/lib/dpkg/status.d/$n\"");
	HAS(sb.buf, ">\"/staging/var/lib/dpkg/status.d/$n.md5sums\"");
	final = strstr(sb.buf, "\nFROM debian:bookworm-slim\n");
	if (!final) {
		t_fail(t, __FILE__, __LINE__, "no final stage:\n%s", sb.buf);
	} else {
		/* the final stage: the stage's files, then user and test */
		HAS(final, "\nCOPY --from=install /staging/ /\n"
			   "# The user and the smoke test.\n"
			   "RUN groupadd --gid 1001 paddle \\\n");
		LACKS(final, "apt-get");
		LACKS(final, "--mount");
		LACKS(final, "&& ldconfig");
		LACKS(final, "RUN ldconfig");
		LACKS(final, "DEBIAN_FRONTEND");
	}
	LACKS(sb.buf, "\nCOPY paddle");
	strbuf_reset(&sb);
	in.variant = variant(&spec, "gpu-avx");
	mirror.apt_mirror = "s|deb.debian.org|mirror.example.org|";
	pp_dockerfile_prod(&spec, &mirror, &in, &sb);
	HAS(sb.buf, "\nFROM nvidia/cuda:13.0.0-runtime-ubuntu24.04 AS install\n");
	HAS(sb.buf, "\nFROM nvidia/cuda:13.0.0-runtime-ubuntu24.04\n");
	HAS(sb.buf, "sort >/tmp/pkgs-before \\\n    && find /etc/apt/ -name "
		    "'*.list' -o -name '*.sources' | xargs -r sed -i -e "
		    "'s|deb.debian.org|mirror.example.org|' \\\n    && apt-get update");
	strbuf_release(&sb);
	pp_prod_input_release(&in);
	pp_spec_release(&spec);
}

/* The default, records dpkg: one stage, installed in the image. */
static void prod_dpkg_text(struct t_ctx *t)
{
	struct pp_docker_opts dpkg = opts;
	struct pp_prod_input in = { 0 };
	struct strbuf sb = STRBUF_INIT;
	struct pp_spec spec;

	if (load(t, &spec))
		return;
	in.variant = variant(&spec, "cpu-noavx");
	pp_strlist_push(&in.debs, "/x/libpaddle1-noavx_0.11.0-1_amd64.deb");
	pp_strlist_push(&in.names, "libpaddle1-noavx");
	CHECK_INT(pp_prod_records(&spec, &opts), PP_RECORDS_DPKG);
	pp_dockerfile_prod(&spec, &opts, &in, &sb);
	prod_common(t, sb.buf);
	HAS(sb.buf, "\nFROM debian:bookworm-slim\n");
	HAS(sb.buf, "RUN --mount=type=bind,source=.,target=/mnt \\\n"
		    "    apt-get update \\\n    && apt-get install -c "
		    "/mnt/apt.conf -y --no-install-recommends");
	HAS(sb.buf, "/etc/gshadow- \\\n    && paddle --version\n");
	LACKS(sb.buf, " AS ");
	LACKS(sb.buf, "COPY");
	LACKS(sb.buf, "status.d/");
	HAS(sb.buf, "# Records dpkg: installed in this image, in dpkg's database.");
	/* the spec's status.d; the option wins over it */
	spec.image.records = PP_RECORDS_STATUS_D;
	CHECK_INT(pp_prod_records(&spec, &opts), PP_RECORDS_STATUS_D);
	dpkg.records = PP_RECORDS_DPKG;
	CHECK_INT(pp_prod_records(&spec, &dpkg), PP_RECORDS_DPKG);
	strbuf_release(&sb);
	pp_prod_input_release(&in);
	pp_spec_release(&spec);
}

/* Repository mode: the key and the source, installed by name; with
 * records status.d the image gets them from the stage. */
static void prod_repo_text(struct t_ctx *t)
{
	struct pp_docker_opts dpkg = opts, sd = opts;
	struct pp_prod_input in = { 0 };
	struct strbuf sb = STRBUF_INIT;
	struct pp_spec spec;

	if (load(t, &spec))
		return;
	in.variant = variant(&spec, "cpu-avx");
	pp_strlist_push(&in.names, "libpaddle1");
	pp_strlist_push(&in.names, "paddle");
	in.sources = xstrdup("/r/stable.sources");
	in.keyring = xstrdup("/r/paddle-archive-keyring.gpg");
	in.keyring_dest = xstrdup("/usr/share/keyrings/"
				  "paddle-archive-keyring.gpg");
	sd.records = PP_RECORDS_STATUS_D;
	pp_dockerfile_prod(&spec, &sd, &in, &sb);
	no_heredoc(t, sb.buf);
	HAS(sb.buf, " AS install\n\nARG DEBIAN_FRONTEND=noninteractive\n"
		    "COPY paddle-archive-keyring.gpg /usr/share/keyrings/"
		    "paddle-archive-keyring.gpg\n"
		    "COPY paddle.sources /etc/apt/sources.list.d/"
		    "paddle.sources\n");
	HAS(sb.buf, "--no-install-recommends \\\n        libpaddle1 paddle \\\n");
	HAS(sb.buf, "&& printf '%s\\n' etc/apt/sources.list.d/paddle.sources "
		    "usr/share/keyrings/paddle-archive-keyring.gpg >>/tmp/files");
	strbuf_reset(&sb);
	dpkg.records = PP_RECORDS_DPKG;
	pp_dockerfile_prod(&spec, &dpkg, &in, &sb);
	HAS(sb.buf, "\nCOPY paddle-archive-keyring.gpg /usr/share/keyrings/"
		    "paddle-archive-keyring.gpg\n");
	HAS(sb.buf, "\nCOPY paddle.sources /etc/apt/sources.list.d/"
		    "paddle.sources\n");
	LACKS(sb.buf, "/tmp/files");
	strbuf_release(&sb);
	pp_prod_input_release(&in);
	pp_spec_release(&spec);
}

/* '$' stays literal: escaped where the builder would expand it (LABEL),
 * kept for the builder (ENV, from the base image) and for the shell when
 * the script runs (run.sh). */
static void dollars(struct t_ctx *t)
{
	struct strbuf sb = STRBUF_INIT;
	struct pp_err err;
	struct pp_spec spec;

	pp_df_quote(&sb, "a \"$HOME\" \\", 1);
	CHECK_STR(sb.buf, "\"a \\\"\\$HOME\\\" \\\\\"");
	strbuf_reset(&sb);
	pp_df_quote(&sb, "/x:${LD_LIBRARY_PATH}", 0);
	CHECK_STR(sb.buf, "\"/x:${LD_LIBRARY_PATH}\"");
	strbuf_reset(&sb);
	if (load(t, &spec))
		return;
	pp_err_init(&err);
	/* a run flag the shell expands when run.sh runs */
	pp_strlist_push(&spec.axes[0].values[1].container.run_flags,
			"-v=$HOME/.cache:/cache");
	CHECK_INT(pp_script_run(&spec, &opts, &sb, &err), 0);
	HAS(sb.buf, "flags='\"--gpus\" \"all\" \"-v=$HOME/.cache:/cache\"'");
	HAS(sb.buf, "eval \"set -- $flags");
	no_heredoc(t, sb.buf);
	strbuf_release(&sb);
	pp_err_release(&err);
	pp_spec_release(&spec);
}

static void dev_text(struct t_ctx *t)
{
	struct pp_strlist files = PP_STRLIST_INIT;
	struct pp_dev_input in = { 0 };
	struct strbuf sb = STRBUF_INIT;
	struct pp_spec spec;
	struct pp_err err;

	if (load(t, &spec))
		return;
	pp_err_init(&err);
	CHECK_INT(pp_docker_dev_base(&spec, NULL, &in.base, &err), 0);
	CHECK_STR(in.base, "nvidia/cuda:13.0.0-devel-ubuntu24.04");
	CHECK_INT(pp_docker_dev_base(&spec, "tpu", &in.base, &err), -1);
	HAS(err.msg, "those that have: cpu, gpu");
	CHECK_INT(pp_docker_dev_base(&spec, "cpu", &in.base, &err), 0);
	CHECK_STR(in.base, "debian:bookworm");
	in.padpack_files = &files;
	in.spec_file = "paddle.cfg";
	pp_dockerfile_dev(&spec, &opts, &in, &sb);
	no_heredoc(t, sb.buf);
	HAS(sb.buf, "\nFROM debian:bookworm\n");
	HAS(sb.buf, " clang ");
	HAS(sb.buf, " python3-sphinx ");
	HAS(sb.buf, " openssh-server ");
	HAS(sb.buf, " ccache gdb ");
	HAS(sb.buf, " libzydis-dev ");
	HAS(sb.buf, " libjansson-dev ");
	HAS(sb.buf, "ARG WOBOQ_REPO=\n");
	HAS(sb.buf, "\nCMD [\"padpack-dev-build\"]\n");
	HAS(sb.buf, "ENV PADPACK_SPEC=/usr/local/share/padpack/spec/paddle.cfg");
	LACKS(sb.buf, "PermitRootLogin yes");
	strbuf_reset(&sb);
	pp_script_dev_build(&spec, "/s/paddle.cfg", &sb);
	no_heredoc(t, sb.buf);
	HAS(sb.buf, "then WITH_GPU=$GPU; fi");
	HAS(sb.buf, "then WITH_TESTING=$TEST; fi");
	HAS(sb.buf, "if wants WITH_GPU OFF && wants WITH_AVX ON; then set -- "
		    "\"$@\" --variant=cpu-avx; fi");
	HAS(sb.buf, "if wants WITH_GPU ON && wants WITH_AVX OFF; then set -- "
		    "\"$@\" --variant=gpu-noavx; fi");
	HAS(sb.buf, "\"${WITH_TESTING:-ON}\")\" = OFF ]; then test=--no-test");
	HAS(sb.buf, "padpack build -c \"$spec\" --source \"$src\"");
	HAS(sb.buf, "padpack docker prod -c \"$spec\"");
	strbuf_release(&sb);
	pp_err_release(&err);
	pp_spec_release(&spec);
}

static void app_text(struct t_ctx *t)
{
	struct strbuf sb = STRBUF_INIT;
	struct pp_app app = { 0 };
	struct pp_spec spec;

	if (load(t, &spec))
		return;
	pp_dockerfile_app(&spec, &opts, &spec.apps[0], "x/paddle:0.11.0", &sb);
	no_heredoc(t, sb.buf);
	HAS(sb.buf, "\nFROM x/paddle:0.11.0\n");
	HAS(sb.buf, "jupyter-notebook");
	HAS(sb.buf, "\nCOPY copy1/doc /book\n");
	HAS(sb.buf, "\nUSER 1001:1001\n");
	HAS(sb.buf, "\nEXPOSE 8888\n");
	HAS(sb.buf, "\nENTRYPOINT []\nCMD [\"jupyter\", \"notebook\"");
	strbuf_reset(&sb);
	app.name = "calc";
	pp_strlist_push(&app.pip, "numpy==1.26");
	pp_dockerfile_app(&spec, &opts, &app, "x/paddle:0.11.0", &sb);
	HAS(sb.buf, "python3-venv");
	HAS(sb.buf, "python3 -m venv --system-site-packages /opt/calc");
	HAS(sb.buf, "/opt/calc/bin/pip install --no-cache-dir numpy==1.26");
	HAS(sb.buf, "\nENV PATH=/opt/calc/bin:$PATH\n");
	LACKS(sb.buf, "ENTRYPOINT");
	pp_strlist_release(&app.pip);
	strbuf_release(&sb);
	pp_spec_release(&spec);
}

static void build_images_order(struct t_ctx *t)
{
	static const char *const what[] = { "development", "cpu-avx",
					    "gpu-noavx", "book cpu-avx" };
	static const char *const quoted[] = { "development", "cpu-avx",
					      "gpu-noavx", "'book cpu-avx'" };
	struct pp_image_jobs jobs = { 0 };
	struct pp_strlist tl = PP_STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	struct pp_spec spec;
	const char *at;

	if (load(t, &spec))
		return;
	for (size_t i = 0; i < 4; i++) {
		pp_strlist_pushf(&tl, "r/x:%zu", i);
		pp_image_jobs_add(&jobs, what[i], &tl, "ctx");
	}
	pp_script_build_images(&spec, &jobs, &sb);
	no_heredoc(t, sb.buf);
	at = sb.buf;
	for (size_t i = 0; i < 4; i++) {
		char want[64];

		snprintf(want, sizeof(want), "image %s ctx", quoted[i]);
		at = strstr(at, want);
		if (!at) {
			t_fail(t, __FILE__, __LINE__, "'%s' missing or out of "
			       "order:\n%s", want, sb.buf);
			break;
		}
	}
	HAS(sb.buf, "the $what image failed (exit $rc): $*");
	HAS(sb.buf, "export DOCKER_BUILDKIT=1");
	pp_image_jobs_release(&jobs);
	strbuf_release(&sb);
	pp_spec_release(&spec);
}

static void fails(struct t_ctx *t, const char *extra, const char *want)
{
	char text[2048];
	struct pp_spec spec;
	struct pp_err err;

	snprintf(text, sizeof(text), "%s%s", HEAD, extra);
	pp_err_init(&err);
	CHECK_INT(t_spec_load_text("/mnt-docker-XXXXXX", text, &spec, &err,
				   NULL), -1);
	CHECK_INT(err.code, PP_EXIT_INPUT);
	if (!strstr(err.msg, want))
		t_fail(t, __FILE__, __LINE__, "'%s' lacks '%s'", err.msg, want);
	if (!strstr(err.msg, "/mnt-docker-"))
		t_fail(t, __FILE__, __LINE__, "'%s' names no file", err.msg);
	pp_err_release(&err);
}

static void spec_errors(struct t_ctx *t)
{
	fails(t, "image = { uid = 0; };\n", ":8: setting 'image.uid': 0 is "
	      "not a number from 1 to 65534");
	fails(t, "image = { labels = [ \"Bad Key=x\" ]; };\n",
	      "setting 'image.labels[0]'");
	fails(t, "image = { smoke = [ \"a\\nb\" ]; };\n", "line break");
	fails(t, "image = { records = \"rpm\"; };\n", ":8: setting "
	      "'image.records': 'rpm' is not valid; must be \"status.d\"");
	fails(t, "image = { runtime = [ \"lib@nam@1\" ]; };\n",
	      "unknown placeholder @nam@");
	fails(t, "image = { dev_env = { GPU = \"with gpu\"; }; };\n",
	      "is not a variable name");
	fails(t, "apps = ( { name = \"book\"; expose = [ \"88888\" ]; } );\n",
	      "a port from 1 to 65535");
	fails(t, "apps = ( { name = \"book\"; copy = [ \"book\" ]; } );\n",
	      "SRC:DEST");
	fails(t, "apps = ( { name = \"a\"; }, { name = \"a\"; } );\n",
	      "a second app named 'a'");
}

T_SUITE(docker_tests) = {
	{ "docker: tags: gpu before noavx, latest, dev, mirrors, apps", tags },
	{ "docker: production Dockerfile (records status.d)", prod_text },
	{ "docker: production Dockerfile (records dpkg, the default)",
	  prod_dpkg_text },
	{ "docker: production Dockerfile from an apt repository",
	  prod_repo_text },
	{ "docker: $ kept literal for builder and shell", dollars },
	{ "docker: development Dockerfile and its default command", dev_text },
	{ "docker: application Dockerfile", app_text },
	{ "docker: build-images.sh builds in order", build_images_order },
	{ "docker: spec errors name file, line and setting", spec_errors },
	T_END,
};
