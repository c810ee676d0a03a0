/* padpack docker, the text of the Dockerfiles (dockerfile.c): production,
 * development and application images, made in memory so that it can be
 * checked as such.
 *
 * Production images install .debs through a bind mount of the context
 * (RUN --mount, BuildKit or buildah), so that the packages never become a
 * layer of their own. By default (records "dpkg") they are installed in
 * the image itself, in dpkg's database, the apt lists removed in the same
 * RUN. With records "status.d" that happens in a build stage, and the
 * image gets only the files of the packages apt added, with their records
 * as distroless images keep them (/var/lib/dpkg/status.d/PKG and
 * PKG.md5sums), not dpkg's whole database. */
#ifndef PP_DOCKERFILE_H
#define PP_DOCKERFILE_H

#include "docker-names.h"

/* The records mode of production images: o's, else the spec's, else
 * dpkg. */
enum pp_records pp_prod_records(const struct pp_spec *spec,
				const struct pp_docker_opts *o);
void pp_dockerfile_prod(const struct pp_spec *spec,
			const struct pp_docker_opts *o,
			const struct pp_prod_input *in, struct strbuf *out);

/* ---- the development image ------------------------------------------------ */

struct pp_dev_input {
	const char *base;        /* the FROM image */
	const char *padpack_src; /* padpack's source tree ... */
	const struct pp_strlist *padpack_files; /* ... the entries copied */
	const char *spec_dir;    /* the spec's directory, copied whole ... */
	const char *skip;        /* ... but this directory (the source), */
	const char *spec_file;   /* the spec's file name in it */
};

void pp_dockerfile_dev(const struct pp_spec *spec,
		       const struct pp_docker_opts *o,
		       const struct pp_dev_input *in, struct strbuf *out);
/* ---- application images --------------------------------------------------- */

/* The copies of app are relative to spec_dir; from is the production
 * image, REPO:TAG. */
void pp_dockerfile_app(const struct pp_spec *spec,
		       const struct pp_docker_opts *o, const struct pp_app *app,
		       const char *from, struct strbuf *out);

#endif
