/* A collective only some ranks call (issue 31): 4 ranks split into two rows of 2, and only the
 * first row makes an MPI_Allreduce on its row communicator. In a SimGrid TI trace (no
 * communicator) ranks 2 and 3 call one collective fewer: the replay refuses, naming it. */
#include <mpi.h>
int main(int argc, char **argv) {
  int me, a = 1, s;
  MPI_Comm row;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_split(MPI_COMM_WORLD, me / 2, me, &row);
  if (me < 2)
    MPI_Allreduce(&a, &s, 1, MPI_INT, MPI_SUM, row);
  MPI_Comm_free(&row);
  MPI_Finalize();
  return 0;
}
