#include "isa-internal.h"
int isa_dispatch_mark(struct isa_obj *obj, const ZydisDecoder *dec,
		      struct pp_err *err)
{
	(void)obj; (void)dec; (void)err;
	return 0;
}
