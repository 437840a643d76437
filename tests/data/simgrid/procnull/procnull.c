/* Sends to MPI_PROC_NULL: SimGrid 3.32 writes isend/send with destination -333 and the wait with
 * destination -333; a sendrecv with MPI_PROC_NULL at both ends writes nothing. 2 ranks. */
#include <mpi.h>
int main(int argc, char **argv) {
  int a[4]; MPI_Request r;
  MPI_Init(&argc, &argv);
  MPI_Isend(a, 4, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Send(a, 4, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD);
  MPI_Sendrecv(a, 1, MPI_INT, MPI_PROC_NULL, 1, a+1, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
