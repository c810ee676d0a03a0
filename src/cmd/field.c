/* padpack field: print control fields, like dpkg-deb --field. */
#include <stdio.h>
#include <string.h>

#include "../lib/control.h"
#include "../lib/deb.h"
#include "cmds.h"

static const char usage[] =
	"usage: padpack field X.deb [FIELD...]\n\n"
	"Without FIELD, prints the whole control file. With one FIELD, prints\n"
	"its value; with several, prints 'Field: value' for each one present.\n"
	"Field names are matched without regard to case, as dpkg does.\n";

static void print_field(const struct pp_field *f, int header)
{
	if (header)
		printf("%s:%s%s\n", f->name,
		       (f->value[0] && f->value[0] != '\n') ? " " : "", f->value);
	else
		printf("%s\n", f->value);
}

static int print_fields(struct pp_stanza *st, int argc, char **argv)
{
	if (argc == 0) {
		for (size_t i = 0; i < st->nr; i++)
			print_field(&st->fields[i], 1);
		return 0;
	}
	for (int i = 0; i < argc; i++) {
		const struct pp_field *f = pp_stanza_find(st, argv[i]);

		if (f)
			print_field(f, argc > 1);
		else if (argc == 1)
			putchar('\n');
	}
	return 0;
}

static int run(int argc, char **argv, struct pp_err *err)
{
	const struct pp_ctrl_member *control;
	struct pp_ctrl_members cm;
	struct pp_stanza st;
	struct pp_deb deb;
	int rc;

	if (argc < 2 || argv[1][0] == '-')
		return pp_usage_error(err, "expected a .deb file");
	if (pp_deb_open(&deb, argv[1], err) < 0)
		return -1;
	rc = pp_deb_read_control(&deb, &cm, err);
	if (rc) {
		pp_deb_close(&deb);
		return rc;
	}
	control = pp_ctrl_members_find(&cm, "control");
	if (!control)
		rc = pp_err_set(err, PP_EXIT_INPUT, "'%s' has no control file",
				argv[1]);
	else
		rc = pp_control_parse(control->data.buf, control->data.len,
				      "control", &st, err);
	if (!rc) {
		rc = print_fields(&st, argc - 2, argv + 2);
		pp_stanza_release(&st);
	} else if (control) {
		pp_err_prefix(err, "%s: ", argv[1]);
	}
	pp_ctrl_members_release(&cm);
	pp_deb_close(&deb);
	return rc;
}

const struct pp_cmd cmd_field = {
	"field", run, "print control fields (dpkg-deb --field)", usage,
};
