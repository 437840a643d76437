#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size, buf[256] = {0};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double x = 0; for (int i = 0; i < 100000; i++) x += i * 0.5;
  if (rank == 0) { MPI_Send(buf, 256, MPI_INT, 1, 7, MPI_COMM_WORLD); MPI_Recv(buf, 256, MPI_INT, size-1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE); }
  else { MPI_Recv(buf, 256, MPI_INT, rank-1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE); MPI_Send(buf, 256, MPI_INT, (rank+1)%size, 7, MPI_COMM_WORLD); }
  MPI_Barrier(MPI_COMM_WORLD);
  double v = rank, s; MPI_Allreduce(&v, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Bcast(buf, 16, MPI_INT, 0, MPI_COMM_WORLD);
  int out[64], in[64]; MPI_Alltoall(out, 16, MPI_INT, in, 16, MPI_INT, MPI_COMM_WORLD);
  MPI_Request rq[2]; MPI_Isend(buf, 4, MPI_INT, (rank+1)%size, 3, MPI_COMM_WORLD, &rq[0]); MPI_Irecv(in, 4, MPI_INT, (rank+size-1)%size, 3, MPI_COMM_WORLD, &rq[1]); MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  MPI_Gather(buf, 2, MPI_INT, in, 2, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  if (rank == 0) printf("%f\n", x + s);
  return 0;
}
