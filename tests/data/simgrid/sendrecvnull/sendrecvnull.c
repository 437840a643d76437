/* MPI_Sendrecv with MPI_PROC_NULL at one end (issue 31): rank 0 sends 4 ints to rank 1 and
 * receives from MPI_PROC_NULL in one Sendrecv, which SimGrid 3.32 does not write at all (not even
 * its send); rank 1 receives the message with MPI_Recv. The replay refuses, naming rank 1's
 * receive and the reason. 2 ranks. */
#include <mpi.h>
int main(int argc, char **argv) {
  int me, a[4] = {0}, b[4];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0)
    MPI_Sendrecv(a, 4, MPI_INT, 1, 3, b, 4, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  else
    MPI_Recv(b, 4, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
