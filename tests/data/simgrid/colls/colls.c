/* Every MPI-1 collective SimGrid's TI writer knows, with distinct counts and types so the trace's
 * argument order can be read off. 4 ranks. */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  static double d[4096], e[4096];
  static int a[4096], b[4096];
  static char c[4096], c2[4096];
  /* bcast from root 2, 5 doubles */
  MPI_Bcast(d, 5, MPI_DOUBLE, 2, MPI_COMM_WORLD);
  /* reduce to root 1, 3 ints; reduce to root 0, 7 floats */
  MPI_Reduce(a, b, 3, MPI_INT, MPI_SUM, 1, MPI_COMM_WORLD);
  MPI_Reduce(d, e, 7, MPI_FLOAT, MPI_MAX, 0, MPI_COMM_WORLD);
  /* allreduce 6 long long */
  MPI_Allreduce(d, e, 6, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  /* scatter from root 3: 8 chars to each */
  MPI_Scatter(c, 8, MPI_CHAR, c2, 8, MPI_CHAR, 3, MPI_COMM_WORLD);
  /* gather to root 1: 2 shorts each */
  MPI_Gather(a, 2, MPI_SHORT, b, 2, MPI_SHORT, 1, MPI_COMM_WORLD);
  /* allgather 3 ints */
  MPI_Allgather(a, 3, MPI_INT, b, 3, MPI_INT, MPI_COMM_WORLD);
  /* allgatherv: rank r contributes r+1 doubles */
  int rc[4], dis[4], sc[4], sd[4];
  for (int i = 0; i < size; i++) { rc[i] = i + 1; dis[i] = i * 8; }
  MPI_Allgatherv(d, rank + 1, MPI_DOUBLE, e, rc, dis, MPI_DOUBLE, MPI_COMM_WORLD);
  /* gatherv to root 2: rank r sends 2r+1 ints */
  for (int i = 0; i < size; i++) { rc[i] = 2 * i + 1; dis[i] = i * 16; }
  MPI_Gatherv(a, 2 * rank + 1, MPI_INT, b, rc, dis, MPI_INT, 2, MPI_COMM_WORLD);
  /* scatterv from root 0: rank r receives r+3 floats */
  for (int i = 0; i < size; i++) { sc[i] = i + 3; sd[i] = i * 16; }
  MPI_Scatterv(d, sc, sd, MPI_FLOAT, e, rank + 3, MPI_FLOAT, 0, MPI_COMM_WORLD);
  /* alltoall 4 bytes */
  MPI_Alltoall(c, 4, MPI_BYTE, c2, 4, MPI_BYTE, MPI_COMM_WORLD);
  /* alltoallv: rank r sends (r+1)*(j+1) ints to rank j, receives (j+1)*(r+1) from j */
  for (int j = 0; j < size; j++) { sc[j] = (rank + 1) * (j + 1); sd[j] = j * 32; rc[j] = (j + 1) * (rank + 1); dis[j] = j * 32; }
  MPI_Alltoallv(a, sc, sd, MPI_INT, b, rc, dis, MPI_INT, MPI_COMM_WORLD);
  /* reduce_scatter: rank r gets r+2 doubles */
  for (int i = 0; i < size; i++) rc[i] = i + 2;
  MPI_Reduce_scatter(d, e, rc, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  /* scan 9 unsigned */
  MPI_Scan(a, b, 9, MPI_UNSIGNED, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
