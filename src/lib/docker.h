/* padpack docker: the container images that match the packages, written
 * from the spec as Dockerfiles with their build contexts: the development
 * image the core is built in, one production image per variant holding
 * only that variant's runtime packages, application images on top of a
 * production image, and the scripts that build and run them all.
 *
 * The text (pp_dockerfile_*, pp_script_*) is made in memory so that it
 * can be checked as such; pp_docker_write_* lay out a context directory
 * (Dockerfile and what it copies), each file under a temporary name and
 * renamed. No heredocs and no "# syntax=" lines (builders without a
 * registry cannot fetch the frontend), nothing secret, no proxy.
 *
 * Production images install .debs through a bind mount of the context
 * (RUN --mount, BuildKit or buildah), so that the packages never become a
 * layer of their own. By default (records "dpkg") they are installed in
 * the image itself, in dpkg's database, the apt lists removed in the same
 * RUN. With records "status.d" that happens in a build stage, and the
 * image gets only the files of the packages apt added, with their records
 * as distroless images keep them (/var/lib/dpkg/status.d/PKG and
 * PKG.md5sums), not dpkg's whole database. */
#ifndef PP_DOCKER_H
#define PP_DOCKER_H

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

/* The records mode of production images: o's, else the spec's, else
 * dpkg. */
enum pp_records pp_prod_records(const struct pp_spec *spec,
				const struct pp_docker_opts *o);
void pp_dockerfile_prod(const struct pp_spec *spec,
			const struct pp_docker_opts *o,
			const struct pp_prod_input *in, struct strbuf *out);
/* Writes dir/Dockerfile and its context (emptied first). */
int pp_docker_write_prod(const struct pp_spec *spec,
			 const struct pp_docker_opts *o,
			 const struct pp_prod_input *in, const char *dir,
			 struct pp_err *err);

/* ---- the development image ------------------------------------------------ */

struct pp_dev_input {
	const char *base;        /* the FROM image */
	const char *padpack_src; /* padpack's source tree ... */
	const struct pp_strlist *padpack_files; /* ... the entries copied */
	const char *spec_dir;    /* the spec's directory, copied whole ... */
	const char *skip;        /* ... but this directory (the source), */
	const char *spec_file;   /* the spec's file name in it */
};

/* Which base the development image uses: the dev_base of the device named
 * (NULL: of the last value that has one, a CUDA devel base where the spec
 * has GPU variants). */
int pp_docker_dev_base(const struct pp_spec *spec, const char *device,
		       const char **base, struct pp_err *err);
void pp_dockerfile_dev(const struct pp_spec *spec,
		       const struct pp_docker_opts *o,
		       const struct pp_dev_input *in, struct strbuf *out);
int pp_docker_write_dev(const struct pp_spec *spec,
			const struct pp_docker_opts *o,
			const struct pp_dev_input *in, const char *dir,
			struct pp_err *err);

/* ---- application images --------------------------------------------------- */

/* The copies of app are relative to spec_dir; from is the production
 * image, REPO:TAG. */
void pp_dockerfile_app(const struct pp_spec *spec,
		       const struct pp_docker_opts *o, const struct pp_app *app,
		       const char *from, struct strbuf *out);
int pp_docker_write_app(const struct pp_spec *spec,
			const struct pp_docker_opts *o,
			const struct pp_app *app, const char *from,
			const char *spec_dir, const char *dir,
			struct pp_err *err);

/* ---- scripts -------------------------------------------------------------- */

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
