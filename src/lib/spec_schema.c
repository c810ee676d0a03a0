/* The settings a spec may have, and the check that a file has only those,
 * each of the right type. The meaning of each is in pkg/paddle.cfg. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "specint.h"

#define STRS_WHAT "a list of strings, e.g. [\"a\", \"b\"]"

static const struct pp_skey tool_keys[] = {
	{ "program", PP_ST_STRING, PP_SK_REQUIRED, NULL,
	  "a program name without '/', e.g. \"nvcc\"" },
	{ "what", PP_ST_STRING, PP_SK_REQUIRED, NULL,
	  "what provides the program, e.g. \"the CUDA toolkit\"" },
	{ "search", PP_ST_STRINGS, 0, NULL,
	  "absolute directories tried after PATH, e.g. "
	  "[\"/usr/local/cuda/bin\"]" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct pp_skey container_keys[] = {
	{ "base", PP_ST_STRING, 0, NULL,
	  "the production image's base, e.g. \"debian:bookworm-slim\"" },
	{ "dev_base", PP_ST_STRING, 0, NULL,
	  "the development image's base, e.g. \"debian:bookworm\"" },
	{ "build_flags", PP_ST_STRINGS, 0, NULL,
	  "docker run flags of builds, e.g. [\"--shm-size=8g\"]" },
	{ "run_flags", PP_ST_STRINGS, 0, NULL,
	  "docker run flags of the image, e.g. [\"--gpus\", \"all\"]" },
	{ "env", PP_ST_STRINGS, 0, NULL,
	  "NAME=VALUE strings, e.g. [\"MTHREADS_VISIBLE_DEVICES=all\"]" },
	{ NULL, 0, 0, NULL, NULL },
};

#define SETTINGS_KEYS \
	{ "cmake", PP_ST_STRINGS, 0, NULL, \
	  "a list of CMake arguments, e.g. [\"-DWITH_GPU=ON\"]" }, \
	{ "cflags", PP_ST_STRINGS, 0, NULL, \
	  "a list of compiler flags, e.g. [\"-mno-avx\"]" }, \
	{ "env", PP_ST_MAP, 0, NULL, \
	  "a group of NAME = \"value\" settings, e.g. { WITH_GPU = \"ON\"; }" }, \
	{ "needs", PP_ST_GROUPS, 0, tool_keys, \
	  "a list of tools, e.g. ( { program = \"nvcc\"; what = \"CUDA\"; } )" }

/* What only some build systems read (build.system); last in their
 * groups, after the keys every system reads. */
#define SYSTEM_SETTINGS_KEYS \
	{ "cppflags", PP_ST_STRINGS, 0, NULL, \
	  "a list of preprocessor flags, e.g. [\"-DNDEBUG\"]" }, \
	{ "ldflags", PP_ST_STRINGS, 0, NULL, \
	  "a list of linker flags, e.g. [\"-Wl,--as-needed\"]" }, \
	{ "make_vars", PP_ST_STRINGS, 0, NULL, \
	  "make variables, e.g. [\"USE_OPENMP=1\", \"PREFIX=/usr\"]" }, \
	{ "configure_args", PP_ST_STRINGS, 0, NULL, \
	  "./configure arguments, e.g. [\"--enable-shared\"]" }, \
	{ "meson_args", PP_ST_STRINGS, 0, NULL, \
	  "meson setup arguments, e.g. [\"-Dtests=true\"]" }

static const struct pp_skey accel_keys[] = {
	{ "what", PP_ST_STRING, PP_SK_REQUIRED, NULL,
	  "what drives the device, e.g. \"the NVIDIA driver\"" },
	{ "libs", PP_ST_STRINGS, PP_SK_REQUIRED, NULL,
	  "the driver's libraries, e.g. [\"libcuda.so.1\"]" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct pp_skey value_keys[] = {
	{ "name", PP_ST_STRING, PP_SK_REQUIRED, NULL,
	  "lower-case letters, digits, '.' and '_', e.g. \"gpu\"" },
	{ "suffix", PP_ST_STRING, PP_SK_REQUIRED, NULL,
	  "\"\" or lower-case letters, digits, '.' and '-', e.g. \"gpu\"" },
	SETTINGS_KEYS,
	{ "forbid_isa", PP_ST_STRINGS, 0, NULL,
	  "instruction sets, e.g. [\"avx\", \"avx2\", \"fma\"]" },
	{ "isa", PP_ST_STRING, 0, NULL,
	  "the most its binaries may use: an x86-64 level and extensions, "
	  "e.g. \"x86-64-v2\" or \"x86-64-v3+AES\"" },
	{ "isa_require", PP_ST_STRINGS, 0, NULL,
	  "instruction sets its binaries must contain, e.g. [\"avx\"]" },
	{ "accelerator", PP_ST_GROUP, 0, accel_keys,
	  "a group: { what = \"the NVIDIA driver\"; libs = [...]; }" },
	{ "container", PP_ST_GROUP, 0, container_keys,
	  "a group: { base = ...; dev_base = ...; build_flags = [...]; "
	  "run_flags = [...]; env = [...]; }" },
	{ "priority", PP_ST_INT, 0, NULL,
	  "a number, added up over a variant's values: its "
	  "update-alternatives priority, e.g. 100" },
	SYSTEM_SETTINGS_KEYS,
	{ NULL, 0, 0, NULL, NULL },
};

static const struct pp_skey axis_keys[] = {
	{ "name", PP_ST_STRING, PP_SK_REQUIRED, NULL,
	  "lower-case letters, digits and '_', e.g. \"device\"" },
	{ "values", PP_ST_GROUPS, PP_SK_REQUIRED, value_keys,
	  "a list of values, e.g. ( { name = \"cpu\"; suffix = \"\"; } )" },
	{ "pack", PP_ST_STRING, 0, NULL,
	  "\"hwcaps\" (the values are glibc-hwcaps builds of one package) "
	  "or \"packages\" (one package per value, the default)" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct pp_skey commands_keys[] = {
	{ "configure", PP_ST_STRINGS, 0, NULL,
	  "shell command lines, e.g. [\"$SRC/configure.sh\"]" },
	{ "build", PP_ST_STRINGS, PP_SK_REQUIRED, NULL,
	  "shell command lines, e.g. [\"make -C $SRC -j$JOBS\"]" },
	{ "test", PP_ST_STRINGS, 0, NULL,
	  "shell command lines, e.g. [\"./run-tests\"]" },
	{ "install", PP_ST_STRINGS, PP_SK_REQUIRED, NULL,
	  "shell command lines, e.g. [\"cp prog $DESTDIR/usr/bin/\"]" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct pp_skey build_keys[] = {
	{ "generator", PP_ST_STRING, 0, NULL,
	  "a CMake generator, e.g. \"Ninja\"" },
	{ "test", PP_ST_BOOL, 0, NULL, "true or false" },
	{ "test_args", PP_ST_STRINGS, 0, NULL,
	  "a list of ctest arguments, e.g. [\"--timeout\", \"600\"]" },
	SETTINGS_KEYS,
	{ "system", PP_ST_STRING, 0, NULL,
	  "\"cmake\", \"make\", \"autotools\", \"meson\" or \"commands\"" },
	{ "buildflags", PP_ST_BOOL, 0, NULL,
	  "true: start from dpkg-buildflags' CFLAGS, LDFLAGS, ..." },
	{ "make_target", PP_ST_STRING, 0, NULL,
	  "make targets, separated by spaces, e.g. \"libs shared\"" },
	{ "make_test_target", PP_ST_STRING, 0, NULL,
	  "a make target, e.g. \"check\"" },
	{ "make_install_target", PP_ST_STRING, 0, NULL,
	  "a make target, e.g. \"install\"" },
	{ "commands", PP_ST_GROUP, 0, commands_keys,
	  "a group: { configure = [...]; build = [...]; test = [...]; "
	  "install = [...]; }" },
	{ "after_build", PP_ST_STRINGS, 0, NULL,
	  "shell command lines, e.g. [\"make -C sub \\\"$@\\\" x.so\"]" },
	{ "after_install", PP_ST_STRINGS, 0, NULL,
	  "shell command lines, e.g. [\"cp x.so \\\"$DESTDIR/usr/lib\\\"\"]" },
	{ "prebuilt_objects", PP_ST_STRINGS, 0, NULL,
	  "globs of object files the source ships, e.g. [\"blobs/*.o\"]" },
	SYSTEM_SETTINGS_KEYS,
	{ NULL, 0, 0, NULL, NULL },
};

static const struct pp_skey image_keys[] = {
	{ "registry", PP_ST_STRING, 0, NULL,
	  "a registry and namespace, e.g. \"docker.io/paddlepaddle\"" },
	{ "name", PP_ST_STRING, 0, NULL, "an image name, e.g. \"paddle\"" },
	{ "tag", PP_ST_STRING, 0, NULL, "a tag template, e.g. \"@version@\"" },
	{ "dev", PP_ST_STRING, 0, NULL,
	  "the development image, e.g. \"paddle:@version@-dev\"" },
	{ "apt_mirror", PP_ST_STRING, 0, NULL,
	  "a sed expression for sources.list, e.g. \"s|deb.debian.org|m|\"" },
	{ "mount", PP_ST_STRING, 0, NULL,
	  "an absolute path, e.g. \"/paddle\"" },
	{ "latest", PP_ST_STRING, 0, NULL, "an alias tag, e.g. \"latest\"" },
	{ "user", PP_ST_STRING, 0, NULL, "a user name, e.g. \"paddle\"" },
	{ "uid", PP_ST_INT, 0, NULL, "a number from 1 to 65534, e.g. 1001" },
	{ "runtime", PP_ST_STRINGS, 0, NULL,
	  "package name templates, e.g. [\"lib@name@1\", \"@name@\"]" },
	{ "entrypoint", PP_ST_STRINGS, 0, NULL,
	  "a command as a list of words, e.g. [\"paddle\"]" },
	{ "cmd", PP_ST_STRINGS, 0, NULL,
	  "a command as a list of words, e.g. [\"--help\"]" },
	{ "smoke", PP_ST_STRINGS, 0, NULL,
	  "a command as a list of words, e.g. [\"paddle\", \"--version\"]" },
	{ "labels", PP_ST_STRINGS, 0, NULL,
	  "KEY=VALUE strings, e.g. [\"org.opencontainers.image.vendor=X\"]" },
	{ "label_prefix", PP_ST_STRING, 0, NULL,
	  "a reverse domain name, e.g. \"org.paddlepaddle\"" },
	{ "dev_packages", PP_ST_STRINGS, 0, NULL,
	  "Debian package names, e.g. [\"g++\", \"cmake\"]" },
	{ "dev_env", PP_ST_MAP, 0, NULL,
	  "a group of SHORT = \"VARIABLE\", e.g. { GPU = \"WITH_GPU\"; }" },
	{ "woboq", PP_ST_STRING, 0, NULL,
	  "a git URL of the woboq code browser" },
	{ "helpers", PP_ST_BOOL, 0, NULL, "true or false" },
	{ "records", PP_ST_STRING, 0, NULL,
	  "how production images record their packages: \"status.d\" or "
	  "\"dpkg\"" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct pp_skey app_keys[] = {
	{ "name", PP_ST_STRING, PP_SK_REQUIRED, NULL,
	  "an image name: lower-case letters, digits, '.', '_', '-'" },
	{ "variants", PP_ST_STRINGS, 0, NULL,
	  "variant names or globs, e.g. [\"cpu-avx\", \"gpu-avx\"]" },
	{ "apt", PP_ST_STRINGS, 0, NULL,
	  "Debian package names, e.g. [\"python3-numpy\"]" },
	{ "pip", PP_ST_STRINGS, 0, NULL,
	  "pip install arguments, e.g. [\"jupyter\"]" },
	{ "copy", PP_ST_STRINGS, 0, NULL,
	  "SRC:DEST strings, SRC relative to the spec, e.g. [\"book:/book\"]" },
	{ "expose", PP_ST_STRINGS, 0, NULL, "ports, e.g. [\"8888\"]" },
	{ "env", PP_ST_STRINGS, 0, NULL, "NAME=VALUE strings" },
	{ "cmd", PP_ST_STRINGS, 0, NULL,
	  "a command as a list of words, e.g. [\"jupyter\", \"notebook\"]" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct pp_skey needed_keys[] = {
	{ "soname", PP_ST_STRING, PP_SK_REQUIRED, NULL,
	  "a soname glob, e.g. \"libcudart.so.*\"" },
	{ "depends", PP_ST_STRING, PP_SK_REQUIRED, NULL,
	  "a Depends entry, e.g. \"libcudart13\"" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct pp_skey file_keys[] = {
	{ "path", PP_ST_STRING, PP_SK_REQUIRED, NULL,
	  "a glob relative to the stage, e.g. \"usr/include/*\"" },
	{ "package", PP_ST_STRING, 0, NULL,
	  "a package name template, e.g. \"lib@name@-dev\"" },
	{ "role", PP_ST_STRING, 0, NULL,
	  "runtime, dev, tools, python, doc or data" },
	{ "drop", PP_ST_STRING, 0, NULL,
	  "why the file is left out, e.g. \"rebuilt at install time\"" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct pp_skey dispatch_keys[] = {
	{ "path", PP_ST_STRING, PP_SK_REQUIRED, NULL,
	  "a glob relative to the stage, e.g. \"usr/lib/*/libfoo.so.*\"" },
	{ "symbols", PP_ST_STRINGS, 0, NULL,
	  "functions only a CPUID check reaches, e.g. [\"*_avx2\"]" },
	{ "ifunc", PP_ST_BOOL, 0, NULL,
	  "true: code only ifunc resolvers reach is exempt" },
	{ "dispatchers", PP_ST_STRINGS, 0, NULL,
	  "functions that act as resolvers, e.g. [\"__libc_ifunc_impl_list\"]" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct pp_skey control_keys[] = {
	{ "package", PP_ST_STRING, PP_SK_REQUIRED, NULL,
	  "a package name or glob, e.g. \"lib@name@1*\"" },
	{ "fields", PP_ST_MAP, 0, NULL,
	  "control fields, e.g. { Section = \"science\"; }" },
	{ "preinst", PP_ST_STRING, 0, NULL,
	  "a maintainer-script template, e.g. \"scripts/x.preinst\"" },
	{ "postinst", PP_ST_STRING, 0, NULL,
	  "a maintainer-script template, e.g. \"scripts/x.postinst\"" },
	{ "prerm", PP_ST_STRING, 0, NULL,
	  "a maintainer-script template, e.g. \"scripts/x.prerm\"" },
	{ "postrm", PP_ST_STRING, 0, NULL,
	  "a maintainer-script template, e.g. \"scripts/x.postrm\"" },
	{ "lintian_overrides", PP_ST_STRINGS, 0, NULL,
	  "lintian override lines, e.g. [\"embedded-library libidn2-0\"]" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct pp_skey alt_link_keys[] = {
	{ "name", PP_ST_STRING, PP_SK_REQUIRED, NULL,
	  "an alternative's name, e.g. \"libblas.so.3-x86_64-linux-gnu\"" },
	{ "link", PP_ST_STRING, PP_SK_REQUIRED, NULL,
	  "the generic path, e.g. \"/usr/lib/x86_64-linux-gnu/libblas.so.3\"" },
	{ "path", PP_ST_STRING, PP_SK_REQUIRED, NULL,
	  "the variant's file, e.g. \"/usr/lib/x86_64-linux-gnu/"
	  "openblas-@suffix@/libblas.so.3\"" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct pp_skey alt_keys[] = {
	{ "name", PP_ST_STRING, PP_SK_REQUIRED, NULL,
	  "an alternative's name, e.g. \"libblas.so.3-x86_64-linux-gnu\"" },
	{ "link", PP_ST_STRING, PP_SK_REQUIRED, NULL,
	  "the generic path, e.g. \"/usr/lib/x86_64-linux-gnu/libblas.so.3\"" },
	{ "path", PP_ST_STRING, PP_SK_REQUIRED, NULL,
	  "the variant's file, e.g. \"/usr/lib/x86_64-linux-gnu/"
	  "openblas-@suffix@/libblas.so.3\"" },
	{ "provides", PP_ST_STRING, 0, NULL,
	  "a virtual package, e.g. \"libblas.so.3\"" },
	{ "slaves", PP_ST_GROUPS, 0, alt_link_keys,
	  "a list, e.g. ( { name = \"cblas.h-x86_64-linux-gnu\"; link = "
	  "...; path = ...; } )" },
	{ "variants", PP_ST_STRINGS, 0, NULL,
	  "the variants that register it, names or globs, e.g. [ "
	  "\"*-haswell\" ]; default every variant" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct pp_skey package_keys[] = {
	{ "name", PP_ST_STRING, 0, NULL,
	  "a package name template, e.g. \"@name@\"" },
	{ "revision", PP_ST_STRING, 0, NULL,
	  "the Debian revision, e.g. \"1\"" },
	{ "epoch", PP_ST_INT, 0, NULL,
	  "the Debian epoch, a number from 1, e.g. 1" },
	{ "title", PP_ST_STRING, 0, NULL,
	  "a short name for synopses, e.g. \"Paddle core\"" },
	{ "runtime", PP_ST_STRING, 0, NULL,
	  "\"auto\" (the default: one package when the build uses the "
	  "libraries only together, else one each), \"soname\" (one "
	  "runtime package per shared library) or \"one\" (all in one "
	  "package)" },
	{ "dev", PP_ST_STRING, 0, NULL,
	  "\"auto\" (the default: one -dev package for the source, but a "
	  "C++ library's own beside C ones), \"one\" or \"library\" (a "
	  "-dev package per shared library)" },
	{ "doc", PP_ST_STRING, 0, NULL,
	  "\"auto\" (the default: a -doc package for a manual of 512 KiB or "
	  "one a generator made), \"package\" or \"none\"" },
	{ "variants", PP_ST_STRING, 0, NULL,
	  "\"exclusive\" (variant packages conflict, the default) or "
	  "\"coinstallable\"" },
	{ "alternatives", PP_ST_GROUPS, 0, alt_keys,
	  "a list, e.g. ( { name = \"libblas.so.3-x86_64-linux-gnu\"; "
	  "link = ...; path = ...; } )" },
	{ "section", PP_ST_STRING, 0, NULL,
	  "the Debian section of programs and data, e.g. \"science\"" },
	{ "copyright", PP_ST_STRING, 0, NULL,
	  "a DEP-5 copyright file, relative to the spec" },
	{ "changelog", PP_ST_STRING, 0, NULL,
	  "a debian/changelog file, relative to the spec" },
	{ "distribution", PP_ST_STRING, 0, NULL,
	  "the changelog's distribution, e.g. \"unstable\"" },
	{ "urgency", PP_ST_STRING, 0, NULL,
	  "low, medium, high, emergency or critical" },
	{ "build_depends", PP_ST_STRINGS, 0, NULL,
	  "Debian packages the build used, e.g. [\"cmake\", \"gcc\"]" },
	{ "templates", PP_ST_STRING, 0, NULL,
	  "a directory of control templates, relative to the spec" },
	{ "isa_dispatch", PP_ST_GROUPS, 0, dispatch_keys,
	  "a list, e.g. ( { path = \"usr/lib/*/libx.so.*\"; ifunc = true; } )" },
	{ "control", PP_ST_GROUPS, 0, control_keys,
	  "a list, e.g. ( { package = \"x\"; fields = { Section = \"y\"; }; } )" },
	{ "needed", PP_ST_GROUPS, 0, needed_keys,
	  "a list, e.g. ( { soname = \"libcudart.so.*\"; depends = \"x\"; } )" },
	{ "files", PP_ST_GROUPS, 0, file_keys,
	  "a list, e.g. ( { path = \"usr/include/*\"; package = \"x-dev\"; } )" },
	{ NULL, 0, 0, NULL, NULL },
};

const struct pp_skey pp_spec_schema[] = {
	{ "name", PP_ST_STRING, PP_SK_REQUIRED, NULL,
	  "a Debian package name, e.g. \"paddle\"" },
	{ "version", PP_ST_STRING, 0, NULL,
	  "an upstream version, e.g. \"0.11.0\" or \"1.4.2+ds\"" },
	{ "version_env", PP_ST_STRING, 0, NULL,
	  "an environment variable name, e.g. \"PADDLE_VERSION\"" },
	{ "maintainer", PP_ST_STRING, PP_SK_REQUIRED, NULL,
	  "\"Name <email>\" (or set DEBFULLNAME and DEBEMAIL, as for dch)" },
	{ "homepage", PP_ST_STRING, 0, NULL,
	  "an http:// or https:// URL" },
	{ "summary", PP_ST_STRING, PP_SK_REQUIRED, NULL,
	  "one line of under 80 characters" },
	{ "description", PP_ST_STRING, PP_SK_REQUIRED, NULL,
	  "a paragraph of text" },
	{ "source", PP_ST_STRING, 0, NULL,
	  "a directory, relative to the spec, e.g. \"paddle\"" },
	{ "build", PP_ST_GROUP, 0, build_keys,
	  "a group: { cmake = [...]; cflags = [...]; env = {...}; ... }" },
	{ "axes", PP_ST_GROUPS, PP_SK_REQUIRED, axis_keys,
	  "a list of axes, e.g. ( { name = \"device\"; values = (...); } )" },
	{ "exclude", PP_ST_STRINGS, 0, NULL,
	  "a list of variant names or globs, e.g. [\"gpu-noavx\"]" },
	{ "image", PP_ST_GROUP, 0, image_keys,
	  "a group: { registry = ...; name = ...; tag = ...; ... }" },
	{ "packages", PP_ST_GROUP, 0, package_keys,
	  "a group: { name = ...; needed = (...); files = (...); }" },
	{ "apps", PP_ST_GROUPS, 0, app_keys,
	  "a list of application images, e.g. ( { name = \"book\"; ... } )" },
	{ NULL, 0, 0, NULL, NULL },
};

/* The path of s from the root: members by name, list elements by the
 * name they set (axes[device]) or else by position (axes[0]). */
static void setting_path(const config_setting_t *s, struct strbuf *out)
{
	const config_setting_t *parent = config_setting_parent(s);
	const char *label = NULL;

	if (!parent)
		return;
	setting_path(parent, out);
	if (config_setting_name(s)) {
		if (out->len)
			strbuf_addch(out, '.');
		strbuf_addstr(out, config_setting_name(s));
		return;
	}
	if (config_setting_is_group(s) &&
	    config_setting_lookup_string(s, "name", &label) && *label)
		strbuf_addf(out, "[%s]", label);
	else
		strbuf_addf(out, "[%d]", config_setting_index(s));
}

void pp_setting_where(const config_setting_t *s, const char *file,
		      struct strbuf *out)
{
	const char *src = config_setting_source_file(s);
	struct strbuf path = STRBUF_INIT;

	setting_path(s, &path);
	strbuf_addf(out, "%s:%u: setting '%s': ", src ? src : file,
		    config_setting_source_line(s), path.buf);
	strbuf_release(&path);
}

int pp_setting_error(const config_setting_t *s, const char *file,
		     struct pp_err *err, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	pp_setting_where(s, file, &sb);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	pp_err_set(err, PP_EXIT_INPUT, "%s", sb.buf);
	strbuf_release(&sb);
	return -1;
}

static const char *type_name(const config_setting_t *s)
{
	switch (config_setting_type(s)) {
	case CONFIG_TYPE_GROUP: return "a group { }";
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64: return "a number";
	case CONFIG_TYPE_FLOAT: return "a decimal number";
	case CONFIG_TYPE_STRING: return "a string";
	case CONFIG_TYPE_BOOL: return "a boolean";
	case CONFIG_TYPE_ARRAY: return "an array [ ]";
	case CONFIG_TYPE_LIST: return "a list ( )";
	}
	return "empty";
}

static int all_of_type(const config_setting_t *s, int type)
{
	for (int i = 0; i < config_setting_length(s); i++)
		if (config_setting_type(config_setting_get_elem(s, i)) != type)
			return 0;
	return 1;
}

static int check_group(const config_setting_t *g, const struct pp_skey *keys,
		       const char *file, struct pp_err *err);

static int check_map(const config_setting_t *s, const char *file,
		     struct pp_err *err)
{
	for (int i = 0; i < config_setting_length(s); i++) {
		const config_setting_t *e = config_setting_get_elem(s, i);

		if (config_setting_type(e) != CONFIG_TYPE_STRING)
			return pp_setting_error(e, file, err, "is %s; must be "
						"a string in double quotes",
						type_name(e));
	}
	return 0;
}

static int check_value(const config_setting_t *s, const struct pp_skey *k,
		       const char *file, struct pp_err *err)
{
	int t = config_setting_type(s), ok;

	switch (k->type) {
	case PP_ST_STRING: ok = t == CONFIG_TYPE_STRING; break;
	case PP_ST_BOOL: ok = t == CONFIG_TYPE_BOOL; break;
	case PP_ST_INT: ok = t == CONFIG_TYPE_INT; break;
	case PP_ST_GROUP:
	case PP_ST_MAP: ok = t == CONFIG_TYPE_GROUP; break;
	case PP_ST_STRINGS:
		ok = (t == CONFIG_TYPE_ARRAY || t == CONFIG_TYPE_LIST) &&
		     all_of_type(s, CONFIG_TYPE_STRING);
		break;
	case PP_ST_GROUPS:
		ok = t == CONFIG_TYPE_LIST && all_of_type(s, CONFIG_TYPE_GROUP);
		break;
	default: ok = 0;
	}
	if (!ok)
		return pp_setting_error(s, file, err, "is %s%s; must be %s",
					type_name(s),
					t == CONFIG_TYPE_ARRAY ||
					t == CONFIG_TYPE_LIST ?
					" of other things" : "", k->what);
	if (k->type == PP_ST_GROUP)
		return check_group(s, k->sub, file, err);
	if (k->type == PP_ST_MAP)
		return check_map(s, file, err);
	for (int i = 0; k->type == PP_ST_GROUPS &&
	     i < config_setting_length(s); i++)
		if (check_group(config_setting_get_elem(s, i), k->sub, file,
				err) < 0)
			return -1;
	return 0;
}

static const struct pp_skey *find_key(const struct pp_skey *keys,
				      const char *name)
{
	for (; keys->name; keys++)
		if (!strcmp(keys->name, name))
			return keys;
	return NULL;
}

static int unknown_key(const config_setting_t *s, const struct pp_skey *keys,
		       const char *file, struct pp_err *err)
{
	struct strbuf allowed = STRBUF_INIT;
	int rc;

	for (const struct pp_skey *k = keys; k->name; k++)
		strbuf_addf(&allowed, "%s%s", k == keys ? "" : ", ", k->name);
	rc = pp_setting_error(s, file, err, "unknown setting; allowed here: %s",
			      allowed.buf);
	strbuf_release(&allowed);
	return rc;
}

static int check_group(const config_setting_t *g, const struct pp_skey *keys,
		       const char *file, struct pp_err *err)
{
	for (int i = 0; i < config_setting_length(g); i++) {
		const config_setting_t *s = config_setting_get_elem(g, i);
		const struct pp_skey *k = find_key(keys, config_setting_name(s));

		if (!k)
			return unknown_key(s, keys, file, err);
		if (check_value(s, k, file, err) < 0)
			return -1;
	}
	for (const struct pp_skey *k = keys; k->name; k++)
		if ((k->flags & PP_SK_REQUIRED) &&
		    !config_setting_get_member(g, k->name)) {
			if (!config_setting_parent(g))
				return pp_err_set(err, PP_EXIT_INPUT, "%s: "
						  "setting '%s' is missing; it "
						  "must be %s", file, k->name,
						  k->what);
			return pp_setting_error(g, file, err, "lacks '%s', "
						"which must be %s", k->name,
						k->what);
		}
	return 0;
}

int pp_spec_check_schema(const config_setting_t *root, const char *file,
			 struct pp_err *err)
{
	return check_group(root, pp_spec_schema, file, err);
}
