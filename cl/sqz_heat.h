/* sqz_heat.h — the explicit heat-diffusion update over face neighbours, shared by host C and OpenCL C. */
#ifndef SQZ_HEAT_H
#define SQZ_HEAT_H
/* Needs sqz_common.h first. u' = u + alpha * sum over the face neighbours that are domain cells
 * of (u_n - u): holes and borders are insulated, so the total is conserved to round-off. Face
 * neighbours in the engine's raster order (centre skipped): 2D N, W, E, S = 1, 3, 4, 6; 3D
 * (dz, dy, dx) = (-1,0,0), (0,-1,0), (0,0,-1), (0,0,1), (0,1,0), (1,0,0) = 4, 10, 12, 13, 15, 21.
 * The terms are added in that order, without contraction, so every backend rounds alike. */
#define SQZ_HEAT_FACE(i)                                                                                   \
  if ((present >> (i)) & 1u) d += nb[i] - self;
#define SQZ_HEAT_DEFINE(name, T)                                                                           \
  SQZ_FN T name(T self, const T *nb, sqz_u32 present, T alpha, int dims) {                                 \
    T d = (T)0;                                                                                            \
    if (dims == 2) {                                                                                       \
      SQZ_HEAT_FACE(1) SQZ_HEAT_FACE(3) SQZ_HEAT_FACE(4) SQZ_HEAT_FACE(6)                                  \
    } else {                                                                                               \
      SQZ_HEAT_FACE(4) SQZ_HEAT_FACE(10) SQZ_HEAT_FACE(12) SQZ_HEAT_FACE(13) SQZ_HEAT_FACE(15)             \
      SQZ_HEAT_FACE(21)                                                                                    \
    }                                                                                                      \
    T step = alpha * d;                                                                                    \
    return self + step;                                                                                    \
  }
#endif /* SQZ_HEAT_H */
