/* Splitting a field's value into words and freeing them: the lists of
 * conf/distributions and of index fields.
 * Layer: the bottom of the repository module; it calls none of it. */
#include "repo.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

size_t pp_split_words(const char *s, char ***out)
{
	size_t nr = 0, alloc = 0;

	*out = NULL;
	while (*s) {
		size_t n;

		s += strspn(s, " \t\n,");
		n = strcspn(s, " \t\n,");
		if (!n)
			break;
		ARRAY_GROW(*out, alloc, nr + 1);
		(*out)[nr++] = xstrndup(s, n);
		s += n;
	}
	return nr;
}

void pp_free_words(char **w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(w[i]);
	free(w);
}
