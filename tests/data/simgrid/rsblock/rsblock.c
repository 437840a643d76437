/* MPI_Reduce_scatter_block with 5 ints a rank: SimGrid 3.32's TI writer lists 5 zero counts
 * (a vector of recvcount zeros) instead of one count a rank. 2 ranks. */
#include <mpi.h>
int main(int argc, char **argv) {
  int a[10] = {0}, b[5];
  MPI_Init(&argc, &argv);
  MPI_Reduce_scatter_block(a, b, 5, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
