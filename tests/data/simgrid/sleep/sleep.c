/* sleep() and usleep() under SMPI, traced with --cfg=tracing/smpi/sleeping:yes. 1 rank. */
#include <mpi.h>
#include <unistd.h>
int main(int argc, char **argv) { MPI_Init(&argc, &argv); sleep(2); usleep(1500); MPI_Finalize(); return 0; }
