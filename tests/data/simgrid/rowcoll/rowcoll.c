/* Collectives on row communicators (issue 31): 4 ranks split into two rows of 2, and each row
 * broadcasts 16 ints from its first rank. Every rank makes one MPI_Bcast of one size, so a
 * SimGrid TI trace (no communicator) reads as one broadcast of the world: the replay says so. */
#include <mpi.h>
int main(int argc, char **argv) {
  int me, a[16] = {0};
  MPI_Comm row;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_split(MPI_COMM_WORLD, me / 2, me, &row);
  MPI_Bcast(a, 16, MPI_INT, 0, row);
  MPI_Comm_free(&row);
  MPI_Finalize();
  return 0;
}
