/* One MPI_Bcast of one element of every predefined datatype SimGrid 3.32 can trace, in the order
 * of their ids (src/smpi/mpi/smpi_datatype.cpp), rank 0 printing MPI_Type_size of each: the trace
 * gives each type's id, stdout (sizes.out) its size. C++ for MPI_CXX_BOOL; the three
 * MPI_CXX_*_COMPLEX types do not compile against 3.32's smpi.h (it declares them as
 * smpi_MPI_MPI_CXX_...). 2 ranks. */
#include <mpi.h>
#include <stdio.h>
int main(int c, char**v){ int r, s; static char buf[4096]; MPI_Init(&c,&v); MPI_Comm_rank(MPI_COMM_WORLD,&r);
  MPI_Type_size(MPI_DOUBLE, &s); if (r==0) printf("MPI_DOUBLE %d\n", s); MPI_Bcast(buf, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_INT, &s); if (r==0) printf("MPI_INT %d\n", s); MPI_Bcast(buf, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_CHAR, &s); if (r==0) printf("MPI_CHAR %d\n", s); MPI_Bcast(buf, 1, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_SHORT, &s); if (r==0) printf("MPI_SHORT %d\n", s); MPI_Bcast(buf, 1, MPI_SHORT, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_LONG, &s); if (r==0) printf("MPI_LONG %d\n", s); MPI_Bcast(buf, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_FLOAT, &s); if (r==0) printf("MPI_FLOAT %d\n", s); MPI_Bcast(buf, 1, MPI_FLOAT, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_BYTE, &s); if (r==0) printf("MPI_BYTE %d\n", s); MPI_Bcast(buf, 1, MPI_BYTE, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_LONG_LONG, &s); if (r==0) printf("MPI_LONG_LONG %d\n", s); MPI_Bcast(buf, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_SIGNED_CHAR, &s); if (r==0) printf("MPI_SIGNED_CHAR %d\n", s); MPI_Bcast(buf, 1, MPI_SIGNED_CHAR, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_UNSIGNED_CHAR, &s); if (r==0) printf("MPI_UNSIGNED_CHAR %d\n", s); MPI_Bcast(buf, 1, MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_UNSIGNED_SHORT, &s); if (r==0) printf("MPI_UNSIGNED_SHORT %d\n", s); MPI_Bcast(buf, 1, MPI_UNSIGNED_SHORT, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_UNSIGNED, &s); if (r==0) printf("MPI_UNSIGNED %d\n", s); MPI_Bcast(buf, 1, MPI_UNSIGNED, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_UNSIGNED_LONG, &s); if (r==0) printf("MPI_UNSIGNED_LONG %d\n", s); MPI_Bcast(buf, 1, MPI_UNSIGNED_LONG, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_UNSIGNED_LONG_LONG, &s); if (r==0) printf("MPI_UNSIGNED_LONG_LONG %d\n", s); MPI_Bcast(buf, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_LONG_DOUBLE, &s); if (r==0) printf("MPI_LONG_DOUBLE %d\n", s); MPI_Bcast(buf, 1, MPI_LONG_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_WCHAR, &s); if (r==0) printf("MPI_WCHAR %d\n", s); MPI_Bcast(buf, 1, MPI_WCHAR, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_C_BOOL, &s); if (r==0) printf("MPI_C_BOOL %d\n", s); MPI_Bcast(buf, 1, MPI_C_BOOL, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_INT8_T, &s); if (r==0) printf("MPI_INT8_T %d\n", s); MPI_Bcast(buf, 1, MPI_INT8_T, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_INT16_T, &s); if (r==0) printf("MPI_INT16_T %d\n", s); MPI_Bcast(buf, 1, MPI_INT16_T, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_INT32_T, &s); if (r==0) printf("MPI_INT32_T %d\n", s); MPI_Bcast(buf, 1, MPI_INT32_T, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_INT64_T, &s); if (r==0) printf("MPI_INT64_T %d\n", s); MPI_Bcast(buf, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_UINT8_T, &s); if (r==0) printf("MPI_UINT8_T %d\n", s); MPI_Bcast(buf, 1, MPI_UINT8_T, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_UINT16_T, &s); if (r==0) printf("MPI_UINT16_T %d\n", s); MPI_Bcast(buf, 1, MPI_UINT16_T, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_UINT32_T, &s); if (r==0) printf("MPI_UINT32_T %d\n", s); MPI_Bcast(buf, 1, MPI_UINT32_T, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_UINT64_T, &s); if (r==0) printf("MPI_UINT64_T %d\n", s); MPI_Bcast(buf, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_C_FLOAT_COMPLEX, &s); if (r==0) printf("MPI_C_FLOAT_COMPLEX %d\n", s); MPI_Bcast(buf, 1, MPI_C_FLOAT_COMPLEX, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_C_DOUBLE_COMPLEX, &s); if (r==0) printf("MPI_C_DOUBLE_COMPLEX %d\n", s); MPI_Bcast(buf, 1, MPI_C_DOUBLE_COMPLEX, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_C_LONG_DOUBLE_COMPLEX, &s); if (r==0) printf("MPI_C_LONG_DOUBLE_COMPLEX %d\n", s); MPI_Bcast(buf, 1, MPI_C_LONG_DOUBLE_COMPLEX, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_AINT, &s); if (r==0) printf("MPI_AINT %d\n", s); MPI_Bcast(buf, 1, MPI_AINT, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_OFFSET, &s); if (r==0) printf("MPI_OFFSET %d\n", s); MPI_Bcast(buf, 1, MPI_OFFSET, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_FLOAT_INT, &s); if (r==0) printf("MPI_FLOAT_INT %d\n", s); MPI_Bcast(buf, 1, MPI_FLOAT_INT, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_LONG_INT, &s); if (r==0) printf("MPI_LONG_INT %d\n", s); MPI_Bcast(buf, 1, MPI_LONG_INT, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_DOUBLE_INT, &s); if (r==0) printf("MPI_DOUBLE_INT %d\n", s); MPI_Bcast(buf, 1, MPI_DOUBLE_INT, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_SHORT_INT, &s); if (r==0) printf("MPI_SHORT_INT %d\n", s); MPI_Bcast(buf, 1, MPI_SHORT_INT, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_2INT, &s); if (r==0) printf("MPI_2INT %d\n", s); MPI_Bcast(buf, 1, MPI_2INT, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_2FLOAT, &s); if (r==0) printf("MPI_2FLOAT %d\n", s); MPI_Bcast(buf, 1, MPI_2FLOAT, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_2DOUBLE, &s); if (r==0) printf("MPI_2DOUBLE %d\n", s); MPI_Bcast(buf, 1, MPI_2DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_2LONG, &s); if (r==0) printf("MPI_2LONG %d\n", s); MPI_Bcast(buf, 1, MPI_2LONG, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_REAL, &s); if (r==0) printf("MPI_REAL %d\n", s); MPI_Bcast(buf, 1, MPI_REAL, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_REAL4, &s); if (r==0) printf("MPI_REAL4 %d\n", s); MPI_Bcast(buf, 1, MPI_REAL4, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_REAL8, &s); if (r==0) printf("MPI_REAL8 %d\n", s); MPI_Bcast(buf, 1, MPI_REAL8, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_REAL16, &s); if (r==0) printf("MPI_REAL16 %d\n", s); MPI_Bcast(buf, 1, MPI_REAL16, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_COMPLEX8, &s); if (r==0) printf("MPI_COMPLEX8 %d\n", s); MPI_Bcast(buf, 1, MPI_COMPLEX8, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_COMPLEX16, &s); if (r==0) printf("MPI_COMPLEX16 %d\n", s); MPI_Bcast(buf, 1, MPI_COMPLEX16, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_COMPLEX32, &s); if (r==0) printf("MPI_COMPLEX32 %d\n", s); MPI_Bcast(buf, 1, MPI_COMPLEX32, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_INTEGER1, &s); if (r==0) printf("MPI_INTEGER1 %d\n", s); MPI_Bcast(buf, 1, MPI_INTEGER1, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_INTEGER2, &s); if (r==0) printf("MPI_INTEGER2 %d\n", s); MPI_Bcast(buf, 1, MPI_INTEGER2, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_INTEGER4, &s); if (r==0) printf("MPI_INTEGER4 %d\n", s); MPI_Bcast(buf, 1, MPI_INTEGER4, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_INTEGER8, &s); if (r==0) printf("MPI_INTEGER8 %d\n", s); MPI_Bcast(buf, 1, MPI_INTEGER8, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_INTEGER16, &s); if (r==0) printf("MPI_INTEGER16 %d\n", s); MPI_Bcast(buf, 1, MPI_INTEGER16, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_LONG_DOUBLE_INT, &s); if (r==0) printf("MPI_LONG_DOUBLE_INT %d\n", s); MPI_Bcast(buf, 1, MPI_LONG_DOUBLE_INT, 0, MPI_COMM_WORLD);


  MPI_Type_size(MPI_PACKED, &s); if (r==0) printf("MPI_PACKED %d\n", s); MPI_Bcast(buf, 1, MPI_PACKED, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_COUNT, &s); if (r==0) printf("MPI_COUNT %d\n", s); MPI_Bcast(buf, 1, MPI_COUNT, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_CXX_BOOL, &s); if (r==0) printf("MPI_CXX_BOOL %d\n", s); MPI_Bcast(buf, 1, MPI_CXX_BOOL, 0, MPI_COMM_WORLD);
  MPI_Type_size(MPI_UB, &s); if(r==0) printf("MPI_UB %d\n", s); MPI_Type_size(MPI_LB, &s); if(r==0) printf("MPI_LB %d\n", s);
  MPI_Finalize(); return 0; }
