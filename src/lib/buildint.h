/* Internals of padpack build shared by build.c (planning) and
 * buildsys.c (the steps of each build system). */
#ifndef PP_BUILDINT_H
#define PP_BUILDINT_H

#include "build.h"

/* A variant's settings with placeholders expanded, and its flags. */
struct settings_out {
	struct pp_strlist cmake, cflags, cppflags, ldflags, env;
	struct pp_strlist make_vars, configure_args, meson_args;
	struct pp_strlist commands[PP_NR_CMD_STEPS]; /* build.commands */
	struct pp_strlist after_build, after_install; /* make, autotools */
	struct pp_strlist test_args;    /* the spec's */
	struct pp_strlist engine_flags; /* its values' container.build_flags */
};

/* Where the steps see the source tree: the image's mount point in a
 * container, else the source itself. */
const char *pp_build_source_seen(const struct pp_build *b);

/* Adds the job's steps for the spec's build system (before any container
 * wrapping); may set the job's stamp_text and tree_mark. */
void pp_system_steps(const struct pp_build *b, struct pp_job *j,
		     const struct settings_out *o, int ccache);

/* Checks the source tree for what a make build would take as its own:
 * objects built in place (make, autotools), a configure run in place
 * (autotools). */
int pp_system_check_source(const struct pp_build *b, struct pp_err *err);

/* The file a source tree needs for the build system, e.g. CMakeLists.txt
 * (NULL: none), and what to do when it lacks it. */
const char *pp_system_source_file(enum pp_build_kind kind, const char **hint);

#endif
