/* padpack docker: the container images that match the packages, written
 * from the spec as Dockerfiles with their build contexts: the development
 * image the core is built in, one production image per variant holding
 * only that variant's runtime packages, application images on top of a
 * production image, and the scripts that build and run them all.
 *
 * The text (pp_dockerfile_*, pp_script_*) is made in memory so that it
 * can be checked as such; pp_docker_write_* (this header, the build
 * contexts of docker-context.c) lay out a context directory (Dockerfile
 * and what it copies), each file under a temporary name and renamed. No
 * heredocs and no "# syntax=" lines (builders without a registry cannot
 * fetch the frontend), nothing secret, no proxy.
 *
 * The headers, one a file, lowest first: docker-names.h; dockerfile.h
 * and docker-scripts.h; docker-context.h (this one, the top). */
#ifndef PP_DOCKER_CONTEXT_H
#define PP_DOCKER_CONTEXT_H

#include "dockerfile.h"

/* Writes dir/Dockerfile and its context (emptied first). */
int pp_docker_write_prod(const struct pp_spec *spec,
			 const struct pp_docker_opts *o,
			 const struct pp_prod_input *in, const char *dir,
			 struct pp_err *err);

int pp_docker_write_dev(const struct pp_spec *spec,
			const struct pp_docker_opts *o,
			const struct pp_dev_input *in, const char *dir,
			struct pp_err *err);

int pp_docker_write_app(const struct pp_spec *spec,
			const struct pp_docker_opts *o,
			const struct pp_app *app, const char *from,
			const char *spec_dir, const char *dir,
			struct pp_err *err);

#endif
