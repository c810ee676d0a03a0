/* padpack docker, the scripts written beside the Dockerfiles
 * (docker-scripts.c): the development image's default command,
 * build-images.sh, run.sh and container.sh, made in memory. */
#ifndef PP_DOCKER_SCRIPTS_H
#define PP_DOCKER_SCRIPTS_H

#include "docker-names.h"

/* The development image's default command: build + split + docker prod of
 * the variants that GPU/AVX/TEST and WITH_* choose. */
void pp_script_dev_build(const struct pp_spec *spec, const char *spec_path,
			 struct strbuf *out);

/* One image of build-images.sh: its tags and context, relative to the
 * script's directory. */
struct pp_image_job {
	char *what;               /* "development", "cpu-avx", "book cpu-avx" */
	struct pp_strlist tags;
	char *context;
};

struct pp_image_jobs {
	struct pp_image_job *job;
	size_t nr, alloc;
};

void pp_image_jobs_add(struct pp_image_jobs *jobs, const char *what,
		       struct pp_strlist *tags, const char *context);
void pp_image_jobs_release(struct pp_image_jobs *jobs);

/* build-images.sh: every image in order, stopping at the first failure
 * with the command that failed; --dry-run prints the commands. */
void pp_script_build_images(const struct pp_spec *spec,
			    const struct pp_image_jobs *jobs,
			    struct strbuf *out);
/* run.sh VARIANT [ARGS]: a production image with its device's flags. */
int pp_script_run(const struct pp_spec *spec, const struct pp_docker_opts *o,
		  struct strbuf *out, struct pp_err *err);
/* container.sh {start|into|stop}: a development container as the caller. */
int pp_script_container(const struct pp_spec *spec,
			const struct pp_docker_opts *o, struct strbuf *out,
			struct pp_err *err);

#endif
