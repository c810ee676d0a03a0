/* padpack split, what the assigning rules decided for each staged file
 * (split-assign.c), and the packages those decisions make (split-pkgs.c). */
#ifndef PP_SPLIT_CHOICE_H
#define PP_SPLIT_CHOICE_H

#include "split-plan.h"

/* What a rule decided for one file. */
struct choice {
	char *base;      /* package name, NULL when dropped */
	enum pp_role role;
	int explicit_variant; /* the name already names the variant */
	int from_spec;   /* a packages.files rule chose: never moved */
	char *why;
};

/* The packages of the choices (one array a stage, in stage order): each
 * file placed, shared files in the packages without the variant's
 * suffix, -dbgsym packages added, all sorted by name. */
int pp_split_make_packages(struct pp_split *s, struct choice **choices,
			   struct pp_err *err);
void pp_split_free_choices(struct pp_split *s, struct choice **choices);
/* "BASE-SUFFIX", or BASE when SUFFIX is empty; the caller frees it. */
char *pp_split_with_suffix(const char *base, const char *suffix);

#endif
