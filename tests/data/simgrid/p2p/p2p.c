/* Point-to-point calls as SimGrid's TI writer records them: wildcards, test, wait, waitany,
 * waitall, sendrecv, synchronous and buffered sends, MPI_PROC_NULL. 3 ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  int rank, size, flag = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  static int a[1024], b[1024];
  MPI_Status st;
  MPI_Request rq[4];
  if (rank == 1 || rank == 2) MPI_Send(a, 10 * rank, MPI_INT, 0, 5 + rank, MPI_COMM_WORLD);
  if (rank == 0) {
    /* any source, any tag */
    MPI_Recv(b, 100, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    /* any source, fixed tag 7 or 6: whatever is left */
    MPI_Recv(b, 100, MPI_INT, MPI_ANY_SOURCE, st.MPI_TAG == 6 ? 7 : 6, MPI_COMM_WORLD, &st);
  }
  /* irecv with wildcards, completed by wait */
  if (rank == 0) {
    MPI_Irecv(b, 50, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rq[0]);
    MPI_Wait(&rq[0], &st);
  } else if (rank == 1) {
    MPI_Isend(a, 50, MPI_DOUBLE, 0, 11, MPI_COMM_WORLD, &rq[0]);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  }
  /* test loop: rank 2 -> rank 1 */
  if (rank == 2) {
    MPI_Isend(a, 3, MPI_CHAR, 1, 12, MPI_COMM_WORLD, &rq[0]);
    do { MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE); } while (!flag);
  } else if (rank == 1) {
    MPI_Irecv(b, 3, MPI_CHAR, 2, 12, MPI_COMM_WORLD, &rq[0]);
    do { MPI_Test(&rq[0], &flag, &st); } while (!flag);
  }
  /* waitany on two irecvs at rank 0 */
  if (rank == 0) {
    int idx;
    MPI_Irecv(b, 4, MPI_INT, 1, 13, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(b + 4, 4, MPI_INT, 2, 13, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitany(2, rq, &idx, &st);
    MPI_Waitany(2, rq, &idx, &st);
  } else {
    MPI_Send(a, 4, MPI_INT, 0, 13, MPI_COMM_WORLD);
  }
  /* sendrecv around the ring */
  MPI_Sendrecv(a, 6, MPI_INT, (rank + 1) % size, 14, b, 6, MPI_INT, (rank + size - 1) % size, 14, MPI_COMM_WORLD, &st);
  /* sendrecv with an any-source receive */
  MPI_Sendrecv(a, 2, MPI_SHORT, (rank + 1) % size, 15, b, 2, MPI_SHORT, MPI_ANY_SOURCE, 15, MPI_COMM_WORLD, &st);
  /* synchronous sends */
  if (rank == 0) { MPI_Ssend(a, 9, MPI_INT, 1, 16, MPI_COMM_WORLD); MPI_Issend(a, 9, MPI_INT, 2, 16, MPI_COMM_WORLD, &rq[0]); MPI_Wait(&rq[0], &st); }
  else MPI_Recv(b, 9, MPI_INT, 0, 16, MPI_COMM_WORLD, &st);
  /* MPI_PROC_NULL */
  MPI_Send(a, 1, MPI_INT, MPI_PROC_NULL, 17, MPI_COMM_WORLD);
  MPI_Recv(b, 1, MPI_INT, MPI_PROC_NULL, 17, MPI_COMM_WORLD, &st);
  /* testany / testall on isend+irecv pairs */
  MPI_Isend(a, 2, MPI_LONG, (rank + 1) % size, 18, MPI_COMM_WORLD, &rq[0]);
  MPI_Irecv(b, 2, MPI_LONG, (rank + size - 1) % size, 18, MPI_COMM_WORLD, &rq[1]);
  int idx;
  MPI_Testany(2, rq, &idx, &flag, MPI_STATUS_IGNORE);
  do { MPI_Testall(2, rq, &flag, MPI_STATUSES_IGNORE); } while (!flag);
  MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  MPI_Finalize();
  return 0;
}
