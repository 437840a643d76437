/* A non-blocking collective (issue 31): MPI_Ibcast, which SimGrid 3.32 writes as `ibcast`. The
 * replay refuses it, saying what is not supported, why, and the rank. 2 ranks. */
#include <mpi.h>
int main(int argc, char **argv) {
  int a[4] = {0};
  MPI_Request r;
  MPI_Init(&argc, &argv);
  MPI_Ibcast(a, 4, MPI_INT, 0, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
