/* Building the variants of a spec: each one configured, compiled, tested
 * and installed (DESTDIR) into BUILD_DIR/VARIANT/stage by CMake, several at
 * once, each step's output in BUILD_DIR/VARIANT/build.log. On the host, or
 * in a container image with the source mounted (docker or podman).
 *
 * pp_build_plan() decides every command without running anything (so a
 * dry run can show them); pp_build_run() runs them and reports progress
 * through callbacks, as the library never prints. */
#ifndef PP_BUILD_H
#define PP_BUILD_H

#include <sys/types.h>
#include <time.h>

#include "error.h"
#include "spec.h"
#include "strbuf.h"
#include "strlist.h"

enum pp_phase {
	PP_PHASE_WAIT,      /* not started yet */
	PP_PHASE_COPY,      /* make: the source copied into the build tree */
	PP_PHASE_CONFIGURE, /* cmake -S -B, ./configure, meson setup */
	PP_PHASE_BUILD,     /* cmake --build, make, meson compile */
	PP_PHASE_TEST,      /* ctest, make check, meson test */
	PP_PHASE_INSTALL,   /* cmake --install, make install, DESTDIR=stage */
	PP_PHASE_DONE,
	PP_PHASE_FAILED,
	PP_PHASE_SKIPPED,   /* cannot build here (a tool is missing) */
};

const char *pp_phase_name(enum pp_phase phase);

struct pp_step {
	enum pp_phase phase;
	struct pp_strlist argv;
	struct pp_strlist env;  /* NAME=VALUE added to padpack's environment */
	char *cwd;              /* NULL: padpack's current directory */
	int up_to_date;         /* nothing to do: configure ran with these */
	double seconds;         /* how long it took */
};

#define PP_MAX_STEPS 6

/* The build of one variant. */
struct pp_job {
	const struct pp_variant *variant;
	char *dir;        /* BUILD_DIR/VARIANT */
	char *obj;        /* the build tree (make: a copy of the source) */
	char *stage;      /* the DESTDIR of the install */
	char *log;        /* the full log */
	char *stamp;      /* the configuration last set up in obj: a file */
	char *stamp_text; /* ... and what it must say; NULL: nothing to say */
	char *tree_mark;  /* a file of obj a set-up tree has (CMakeCache.txt) */
	int fresh;        /* obj is set up afresh: step 0 first removes it */
	int keep_objects; /* ... all but tree_mark (CMake: its cache) */
	int compile_jobs; /* its share of the jobs (-j) */
	struct pp_step steps[PP_MAX_STEPS];
	size_t nr_steps;
	size_t current;   /* the step running (or that failed) */
	enum pp_phase phase;
	char *message;    /* why it was skipped or failed */
	int exit_status;  /* of the step that failed */
	pid_t pid;
	int log_fd;
	struct timespec started, step_started, ended;
};

struct pp_build_opts {
	const char *source;    /* NULL: the spec's source tree */
	const char *build_dir; /* where BUILD_DIR/VARIANT go */
	int jobs;              /* compile jobs in all, shared by variants */
	int test;              /* 1 run the tests, 0 not, -1 as the spec says */
	int require_all;       /* a variant that cannot build is an error */
	int ccache;            /* use ccache when it is installed */
	int fresh;             /* remove each build tree first */
	const char *image;     /* build inside this image, or NULL */
	const char *engine;    /* with image: docker or podman (NULL: find) */
	int dry_run;           /* only planning: no engine is no error */
};

struct pp_build {
	const struct pp_spec *spec;
	char *source;          /* its real path */
	char *build_dir;       /* absolute, without "." and ".." */
	char *version;
	enum pp_version_origin version_origin;
	int test;
	int parallel;          /* variants at once */
	int compile_jobs;      /* jobs of each variant's compile, at least
				* (the first variants get one more each
				* when they divide unevenly) */
	char *engine;          /* the container engine, with an image */
	char *multiarch;       /* cmake, autotools, meson: x86_64-linux-gnu */
	struct pp_strlist buildflags; /* NAME=VALUE from dpkg-buildflags */
	char *image;
	struct pp_job *jobs;   /* the selected variants, spec order */
	size_t nr_jobs;
};

/* Plans the build of the selected variants (nr_variants flags). Finds the
 * version, the tools and, with an image, the container engine. */
int pp_build_plan(struct pp_build *b, const struct pp_spec *spec,
		  const unsigned char *selected,
		  const struct pp_build_opts *opts, struct pp_err *err);
void pp_build_release(struct pp_build *b);

/* Progress: job changed phase, or (job NULL) time passed, about four times
 * a second while steps run. */
struct pp_build_events {
	void (*changed)(void *ctx, const struct pp_build *b,
			const struct pp_job *job);
	void *ctx;
};

/* Runs the plan. Returns 0 when every job that was not skipped succeeded;
 * else -1 with PP_EXIT_BUILD. The jobs then tell what happened. */
int pp_build_run(struct pp_build *b, const struct pp_build_events *ev,
		 struct pp_err *err);

/* Seconds the job has run so far, or ran in all. */
double pp_job_seconds(const struct pp_job *job);
/* The shell command that runs step again by hand, from any directory. */
void pp_step_command(const struct pp_step *step, struct strbuf *out);
/* What identifies a configure step (its command and environment), as
 * kept in the job's stamp file to tell whether it must run again
 * (pp_job.stamp_text). */
void pp_step_stamp(const struct pp_step *step, struct strbuf *out);
/* Appends the last n lines of the job's log. */
int pp_job_log_tail(const struct pp_job *job, int n, struct strbuf *out,
		    struct pp_err *err);

/* The container engine: name if given, else docker, else podman, looked
 * up in PATH. Fails, saying so, when none is installed. */
int pp_container_engine(const char *name, char **path, struct pp_err *err);

#endif
