/* Prints what it was built with; --check-salt fails when TINY_SALT says
 * "bad", which lets a test make a variant's test phase fail. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef TINY_SALTY /* from the salty value's cflags */
#define TINY_FLAG "salty"
#else
#define TINY_FLAG "none"
#endif

int main(int argc, char **argv)
{
	const char *salt = getenv("TINY_SALT");

	if (argc > 1 && !strcmp(argv[1], "--check-salt")) {
		if (salt && !strcmp(salt, "bad")) {
			fprintf(stderr, "tiny: the salt is bad\n");
			return 8;
		}
		return 0;
	}
	printf("%s flag=%s salt=%s\n", TINY_NAME, TINY_FLAG,
	       salt ? salt : "none");
	return 0;
}
