/* MPI_Sendrecv against a plain MPI_Recv and MPI_Send (issue 31): rank 0's Sendrecv sends 4 ints
 * to rank 1 with tag 5 and receives 2 ints from it with tag 7; rank 1 receives with MPI_Recv and
 * answers with MPI_Send. Ranks 2 and 3 exchange with Sendrecv on both sides. SimGrid 3.32 writes
 * no tags for a Sendrecv. 4 ranks; the program sends 4 messages of 4 + 2 + 3 + 3 ints. */
#include <mpi.h>
int main(int argc, char **argv) {
  int me, a[4] = {0}, b[4];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0) {
    MPI_Sendrecv(a, 4, MPI_INT, 1, 5, b, 2, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (me == 1) {
    MPI_Recv(b, 4, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(a, 2, MPI_INT, 0, 7, MPI_COMM_WORLD);
  } else {
    int peer = 5 - me;
    MPI_Sendrecv(a, 3, MPI_INT, peer, 1, b, 3, MPI_INT, peer, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
