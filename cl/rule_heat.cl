/* rule_heat.cl — explicit heat diffusion as an engine update (cl/sqz_heat.h), alpha = param[0]. */
SQZ_HEAT_DEFINE(sqz_heat_update, sqz_cell_t)
#define SQZ_APPLY(self, nb, present) sqz_heat_update((self), (nb), (present), (sqz_cell_t)param[0], SQZ_DIMS)
