/* Stand-ins for the tutorial's X11 drawing routines (draw_heat.c,
 * draw_wave.c), which need a display: the real-code runs are headless.
 * They draw nothing; the programs' MPI traffic is unchanged. */
void draw_heat(int nx, int ny) { (void)nx; (void)ny; }
void draw_wave(double *values) { (void)values; }
