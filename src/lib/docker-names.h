/* padpack docker, the names (docker-names.c): what every image of a run
 * shares, image names and tags, the base of the development image and
 * which packages a production image installs. The lowest of the docker
 * headers; dockerfile.h, docker-scripts.h and docker-context.h build on
 * it. */
#ifndef PP_DOCKER_NAMES_H
#define PP_DOCKER_NAMES_H

#include "error.h"
#include "spec.h"
#include "strbuf.h"
#include "strlist.h"

/* What every image of a run shares. */
struct pp_docker_opts {
	const char *version;    /* the version built (tags, labels) */
	const char *revision;   /* the source's revision (label), or NULL */
	const char *registry;   /* instead of image.registry ("" for none),
				   e.g. a mirror; NULL: the spec's */
	const char *apt_mirror; /* instead of image.apt_mirror; NULL: spec's */
	const char *created;    /* RFC 3339 time for the label, or NULL */
	enum pp_records records; /* production images: instead of
				    image.records; PP_RECORDS_UNSET: the
				    spec's (default dpkg) */
};

/* ---- names -------------------------------------------------------------- */

/* REGISTRY/NAME, or NAME without a registry. */
void pp_docker_repo(const struct pp_spec *spec,
		    const struct pp_docker_opts *o, const char *name,
		    struct strbuf *out);
/* The tags of v's production image (v NULL: the development image), the
 * main one first: REPO:TAG[-SUFFIX] ("-dev" for the development image),
 * then REPO:LATEST[-SUFFIX] when image.latest is set, and image.dev. */
int pp_docker_tags(const struct pp_spec *spec, const struct pp_docker_opts *o,
		   const struct pp_variant *v, struct pp_strlist *tags,
		   struct pp_err *err);
/* The tags of app's image on top of the production image from:
 * APP_REPO:TAG where TAG is from's tag. */
int pp_docker_app_tags(const struct pp_spec *spec,
		       const struct pp_docker_opts *o, const struct pp_app *app,
		       const char *from, struct pp_strlist *tags,
		       struct pp_err *err);

/* Which base the development image uses: the dev_base of the device named
 * (NULL: of the last value that has one, a CUDA devel base where the spec
 * has GPU variants). */
int pp_docker_dev_base(const struct pp_spec *spec, const char *device,
		       const char **base, struct pp_err *err);
/* ---- production images ---------------------------------------------------- */

/* What a production image installs: .debs from a directory (debs, with
 * their Package names in names), or names from an apt repository given by
 * a deb822 .sources file whose Signed-By key is keyring. */
struct pp_prod_input {
	const struct pp_variant *variant;
	struct pp_strlist debs;     /* paths; empty in repository mode */
	struct pp_strlist names;    /* the packages installed */
	char *sources;              /* repository mode: the .sources file */
	char *keyring;              /*   and the key it names */
	char *keyring_dest;         /*   where Signed-By expects it */
};

void pp_prod_input_release(struct pp_prod_input *in);

/* Finds v's runtime packages among the .debs of dir: each image.runtime
 * template expanded, as NAME-SUFFIX or else NAME (a package the same for
 * every variant), then what they depend on that dir holds too. Fails
 * naming what is missing and what the directory has. */
int pp_docker_find_debs(const struct pp_spec *spec, const char *version,
			const struct pp_variant *v, const char *dir,
			struct pp_prod_input *in, struct pp_err *err);
/* Repository mode: the key named by the Signed-By of the .sources file
 * (looked up beside it by its base name); with no directory of .debs to
 * go by, the package names are image.runtime's with -SUFFIX. */
int pp_docker_use_repo(const struct pp_spec *spec, const char *version,
		       const struct pp_variant *v, const char *sources,
		       struct pp_prod_input *in, struct pp_err *err);

#endif
