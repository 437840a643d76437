/* A 1-D halo exchange on a non-periodic line of ranks (issue 31): MPI_Cart_shift gives
 * MPI_PROC_NULL at both ends, and every rank posts its two receives and two sends each step.
 * SimGrid 3.32 writes the edge ranks' irecv from MPI_PROC_NULL with source -333, as it writes
 * MPI_ANY_SOURCE. 3 steps; on N ranks the program sends 3 x 2 x (N - 1) messages of 8 ints. */
#include <mpi.h>
int main(int argc, char **argv) {
  int n, dims[1] = {0}, periods[1] = {0}, left, right, step;
  int out[2][8] = {{0}}, in[2][8];
  MPI_Comm line;
  MPI_Request r[4];
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  dims[0] = n;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &line);
  MPI_Cart_shift(line, 0, 1, &left, &right);
  for (step = 0; step < 3; step++) {
    MPI_Irecv(in[0], 8, MPI_INT, left, 0, line, &r[0]);
    MPI_Irecv(in[1], 8, MPI_INT, right, 0, line, &r[1]);
    MPI_Isend(out[0], 8, MPI_INT, left, 0, line, &r[2]);
    MPI_Isend(out[1], 8, MPI_INT, right, 0, line, &r[3]);
    MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
  }
  MPI_Comm_free(&line);
  MPI_Finalize();
  return 0;
}
