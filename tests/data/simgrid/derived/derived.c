/* A send of a derived datatype: SimGrid 3.32's TI writer gives every non-predefined type the id
 * -1, so the trace cannot say how many bytes moved. 2 ranks. */
#include <mpi.h>
int main(int argc, char **argv) {
  int rank, a[6] = {0};
  MPI_Datatype pair;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  if (rank == 0) MPI_Send(a, 3, pair, 1, 1, MPI_COMM_WORLD);
  else MPI_Recv(a, 3, pair, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Type_free(&pair);
  MPI_Finalize();
  return 0;
}
