/* padpack field: print control fields, like dpkg-deb --field. */
#include <stdio.h>
#include <string.h>

#include "../lib/control.h"
#include "../lib/deb.h"
#include "../lib/json-out.h"
#include "cmds.h"

static const char usage[] =
	"usage: padpack field X.deb [FIELD...] [--json]\n\n"
	"Without FIELD, prints the control file as it is. With one FIELD,\n"
	"prints its value; with several, prints 'Field: value' for each one\n"
	"present. Values are shown as dpkg-deb --field shows them: names\n"
	"matched without regard to case, relationship fields unfolded onto one\n"
	"line in dpkg's canonical form, the obsolete Revision field folded into\n"
	"Version. A control file dpkg would refuse (a malformed line, no final\n"
	"newline, a field given twice) is read as far as it can be, with a\n"
	"warning for each problem.\n\n"
	"Options:\n"
	"  --json   print one JSON object instead: file, and fields (each\n"
	"           field's value as shown above, in the control file's\n"
	"           order; with FIELDs, those, null for one absent)\n";

static void print_fields(const struct pp_stanza *st, int argc, char **argv,
			 struct pp_err *err)
{
	struct strbuf value = STRBUF_INIT;
	const char *name = "";

	for (int i = 0; i < argc; i++) {
		strbuf_reset(&value);
		if (!pp_field_show(st, argv[i], argc > 1, &name, &value, err)) {
			if (argc == 1)
				putchar('\n');
			continue;
		}
		if (argc > 1) /* ": " even before an empty first line */
			printf("%s: %s\n", name, value.buf);
		else
			printf("%s\n", value.buf);
	}
	strbuf_release(&value);
}

static int run(int argc, char **argv, struct pp_err *err)
{
	int json = pp_take_flag(&argc, argv, "--json");
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
	pp_deb_close(&deb);
	if (rc)
		return rc;
	control = pp_ctrl_members_find(&cm, "control");
	if (!control) {
		rc = pp_err_set(err, PP_EXIT_INPUT, "'%s' has no control file",
				argv[1]);
	} else if (json) {
		pp_control_parse_lenient(control->data.buf, control->data.len,
					 "control", &st, err);
		rc = pp_json_write(stdout, pp_json_fields(argv[1], &st,
							  argc - 2, argc > 2 ?
							  argv + 2 : NULL,
							  err), err);
		pp_stanza_release(&st);
	} else if (argc == 2) {
		fwrite(control->data.buf, 1, control->data.len, stdout);
	} else {
		pp_control_parse_lenient(control->data.buf, control->data.len,
					 "control", &st, err);
		print_fields(&st, argc - 2, argv + 2, err);
		pp_stanza_release(&st);
	}
	pp_ctrl_members_release(&cm);
	return rc;
}

const struct pp_cmd cmd_field = {
	"field", run, "print control fields (dpkg-deb --field)", usage,
};
