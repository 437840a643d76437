// exanet_link_smoke_tb: a self-checking smoke test of the link RTL under a second simulator,
// Icarus Verilog (`iverilog -g2012`), so that the RTL is not tied to Verilator's dialect
// (docs/rtl-portability.md). Not part of the IP; tests/icarus.rs compiles and runs it.
//
//   bench --tx FIFO--> exanet_link_top.u_a --lane--> u_b --RX FIFO--> bench (checks every word)
//         <--RX FIFO-- u_a <--lane-- u_b <--tx FIFO--
//
// The bench writes NUM_PKTS packets into each end's TX FIFO (VC alternating, payload lengths
// 16, 32 and 64 B), each with a SECDED header and a footer carrying the CRC-32C the package
// computes, and reads the other end's RX FIFOs, comparing every header, payload word and
// footer field with what was sent (the footer's CRC-bad bit must stay clear: no bit errors are
// injected). It prints one line per direction, "dir <A>B|B>A> packets <n> words <w> first_hdr
// <cycle>", with the cycle at which the first header showed in the RX FIFO, then PASS or FAIL
// lines. The run ends with $finish (after a FAIL line at the cycle limit).
//
// Loops are while loops over variables declared ahead: Icarus 11.0 miscompiles a loop variable
// declared in a `for` of an automatic function or task of this bench (a lane output of the
// design then stayed X).

`timescale 1ns / 1ps

module exanet_link_smoke_tb;
  import exanet_base_pkg::*;

  // Packets sent each way, and the cycle limit of the run.
  localparam int NUM_PKTS   = 4;
  localparam int MAX_CYCLES = 2000;
  localparam int NUM_VCS    = 2;

  logic clk = 1'b0;
  logic rst_n = 1'b1;  // falls at 1 ns: the asynchronous resets need the edge
  always #3.2 clk = ~clk;  // 156.25 MHz

  logic [NUM_VCS-1:0] a_tx_wr_hf, a_tx_wr_pay, b_tx_wr_hf, b_tx_wr_pay;
  logic [127:0]       a_tx_wdata, b_tx_wdata;
  logic [NUM_VCS-1:0] a_rx_rd_hf, a_rx_rd_pay, b_rx_rd_hf, b_rx_rd_pay;
  logic [NUM_VCS-1:0] a_tx_hf_full, a_tx_pay_full, b_tx_hf_full, b_tx_pay_full;
  logic [NUM_VCS-1:0] a_rx_hf_empty, a_rx_pay_empty, b_rx_hf_empty, b_rx_pay_empty;

  exanet_link_top #(
    .NUM_VCS        (NUM_VCS),
    .LANE_UP_CYCLES (50)
  ) dut (
    .clk_i               (clk),
    .rst_ni              (rst_n),
    .cfg_credit_period_i (16'd35),
    .cfg_max_interval_i  (16'd110),
    .cfg_tred_i          (16'd128),
    .cfg_usedword_i      (1'b0),
    .cfg_after_pkt_i     (1'b1),
    .cfg_whole_pkt_i     (1'b0),
    .cfg_gearbox_en_i    (1'b1),
    .cfg_cc_en_i         (1'b1),
    .a_tx_wr_hf_i        (a_tx_wr_hf),
    .a_tx_wr_pay_i       (a_tx_wr_pay),
    .a_tx_wdata_i        (a_tx_wdata),
    .a_rx_rd_hf_i        (a_rx_rd_hf),
    .a_rx_rd_pay_i       (a_rx_rd_pay),
    .a_tx_hf_full_o      (a_tx_hf_full),
    .a_tx_pay_full_o     (a_tx_pay_full),
    .a_rx_hf_empty_o     (a_rx_hf_empty),
    .a_rx_pay_empty_o    (a_rx_pay_empty),
    .b_tx_wr_hf_i        (b_tx_wr_hf),
    .b_tx_wr_pay_i       (b_tx_wr_pay),
    .b_tx_wdata_i        (b_tx_wdata),
    .b_rx_rd_hf_i        (b_rx_rd_hf),
    .b_rx_rd_pay_i       (b_rx_rd_pay),
    .b_tx_hf_full_o      (b_tx_hf_full),
    .b_tx_pay_full_o     (b_tx_pay_full),
    .b_rx_hf_empty_o     (b_rx_hf_empty),
    .b_rx_pay_empty_o    (b_rx_pay_empty),
    .ab_err_mask_i       (64'd0),
    .ba_err_mask_i       (64'd0)
  );

  // ---------------------------------------------------------------------------------------------
  // Packet contents: a function of (direction, packet index, word index), so the reader can
  // check what the writer sent without sharing a queue.
  // ---------------------------------------------------------------------------------------------

  function automatic int pkt_bytes(int k);
    return 16 << (k % 3);  // 16, 32 or 64 bytes
  endfunction

  function automatic int pkt_vc(int k);
    return k % NUM_VCS;
  endfunction

  function automatic logic [127:0] payload_word(int dir, int k, int w);
    return {32'hC0DE_0000 | 32'(dir), 32'(k), 32'(w), 32'h5A5A_0000 ^ 32'(k * 131 + w)};
  endfunction

  function automatic logic [127:0] header(int dir, int k);
    logic [127:0] h;
    h = '0;
    h[HDR_VC_LSB +: HDR_VC_W]         = 3'(pkt_vc(k));
    h[HDR_TYPE_LSB +: HDR_TYPE_W]     = TYPE_RDMA;
    h[HDR_SIZE_LSB +: HDR_SIZE_W]     = 13'(pkt_bytes(k));
    h[HDR_DST_X_LSB +: HDR_DST_X_W]   = 8'(1 - dir);
    h[HDR_DST_ADDR_LSB +: HDR_DST_ADDR_W] = 48'(32'h1000 * k);
    return secded_encode(h[SECDED_DATA_W-1:0]);
  endfunction

  // The footer as the sender writes it: source, user field, CRC-32C of header, payload and
  // footer bits 63:0 (lseq and its check are the TCL's to write).
  function automatic logic [127:0] footer(int dir, int k);
    logic [127:0] f;
    logic [31:0]  crc;
    int           w;
    f = '0;
    f[FTR_SRC_X_LSB +: FTR_SRC_X_W] = 8'(dir);
    f[FTR_USER_LSB +: FTR_USER_W]   = 20'(k);
    crc = crc32c_start(header(dir, k));
    w   = 0;
    while (w < pkt_bytes(k) / 16) begin
      crc = crc32c_update128(crc, payload_word(dir, k, w));
      w++;
    end
    crc = crc32c_update64(crc, f[63:0]);
    f[FTR_CRC_LSB +: FTR_CRC_W] = crc ^ CRC32C_XOROUT;
    return f;
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Writers: one word a cycle into the TX FIFOs of A (dir 0) and B (dir 1), header, payload,
  // footer, waiting while the FIFO it needs is full.
  // ---------------------------------------------------------------------------------------------

  int cycle = 0;
  always @(posedge clk) cycle <= cycle + 1;

  task automatic write_all(int dir);
    int   k, w;
    logic hf;
    k = 0;
    while (k < NUM_PKTS) begin
      w = -1;
      while (w <= pkt_bytes(k) / 16) begin
        hf = (w < 0) || (w == pkt_bytes(k) / 16);
        @(negedge clk);
        while (tx_full(dir, pkt_vc(k), hf)) @(negedge clk);
        if (dir == 0) begin
          a_tx_wdata = (w < 0) ? header(0, k) : hf ? footer(0, k) : payload_word(0, k, w);
          a_tx_wr_hf[pkt_vc(k)]  = hf;
          a_tx_wr_pay[pkt_vc(k)] = !hf;
        end else begin
          b_tx_wdata = (w < 0) ? header(1, k) : hf ? footer(1, k) : payload_word(1, k, w);
          b_tx_wr_hf[pkt_vc(k)]  = hf;
          b_tx_wr_pay[pkt_vc(k)] = !hf;
        end
        @(posedge clk);
        #0.1;
        if (dir == 0) begin
          a_tx_wr_hf  = '0;
          a_tx_wr_pay = '0;
        end else begin
          b_tx_wr_hf  = '0;
          b_tx_wr_pay = '0;
        end
        w++;
      end
      k++;
    end
  endtask

  // ---------------------------------------------------------------------------------------------
  // Readers: the RX FIFO heads (show-ahead) through the hierarchy, checked word by word. The
  // packets of one VC arrive in order; a per-VC index says which packet is next.
  // ---------------------------------------------------------------------------------------------

  int errors = 0;
  int got_pkts [2];
  int got_words [2];
  int first_hdr [2];

  task automatic check_word(int dir, string what, int k, logic [127:0] got, logic [127:0] want,
                            logic [127:0] mask);
    if ((got & mask) !== (want & mask)) begin
      $display("FAIL dir %0d packet %0d %s: got %h want %h", dir, k, what, got, want);
      errors++;
    end
  endtask

  // The k-th packet of a VC: packets are numbered over both VCs, VC v carries k = v, v+2, ...
  task automatic read_all(int dir);
    int           next [NUM_VCS];
    int           done, v, k, w;
    logic [127:0] hf_data, pay_data;
    v = 0;
    while (v < NUM_VCS) begin
      next[v] = v;
      v++;
    end
    done = 0;
    while (done < NUM_PKTS) begin
      v = 0;
      while (v < NUM_VCS) begin
        k = next[v];
        if (k < NUM_PKTS) begin  // (no `continue`: Icarus 11 does not read it)
          // header
          @(negedge clk);
          while (rx_hf_empty(dir, v)) @(negedge clk);
          if (first_hdr[dir] == 0) first_hdr[dir] = cycle;
          hf_data = rx_hf_data(dir, v);
          // the VC and route fields are the link's to rewrite: compare the rest
          check_word(dir, "header", k, hf_data, header(dir, k), HDR_CRC_MASK);
          pop(dir, v, 1'b1);
          w = 0;
          while (w < pkt_bytes(k) / 16) begin
            @(negedge clk);
            while (rx_pay_empty(dir, v)) @(negedge clk);
            pay_data = rx_pay_data(dir, v);
            check_word(dir, "payload", k, pay_data, payload_word(dir, k, w), '1);
            got_words[dir]++;
            pop(dir, v, 1'b0);
            w++;
          end
          @(negedge clk);
          while (rx_hf_empty(dir, v)) @(negedge clk);
          hf_data = rx_hf_data(dir, v);
          // bits 63:0 and the CRC as sent; the CRC-bad flag clear (no bit errors)
          check_word(dir, "footer", k, hf_data, footer(dir, k),
                     {32'hFFFF_FFFF, 32'h0000_0001, 64'hFFFF_FFFF_FFFF_FFFF});
          pop(dir, v, 1'b1);
          got_pkts[dir]++;
          next[v] = k + NUM_VCS;
          done++;
        end
        v++;
      end
    end
  endtask

  function automatic logic tx_full(int dir, int v, logic hf);
    if (dir == 0) return hf ? a_tx_hf_full[v] : a_tx_pay_full[v];
    return hf ? b_tx_hf_full[v] : b_tx_pay_full[v];
  endfunction

  function automatic logic rx_hf_empty(int dir, int v);
    if (dir == 0) return v == 0 ? dut.u_b.gen_rx[0].u_fifo.hf_empty_o : dut.u_b.gen_rx[1].u_fifo.hf_empty_o;
    return v == 0 ? dut.u_a.gen_rx[0].u_fifo.hf_empty_o : dut.u_a.gen_rx[1].u_fifo.hf_empty_o;
  endfunction

  function automatic logic rx_pay_empty(int dir, int v);
    if (dir == 0) return v == 0 ? dut.u_b.gen_rx[0].u_fifo.pay_empty_o : dut.u_b.gen_rx[1].u_fifo.pay_empty_o;
    return v == 0 ? dut.u_a.gen_rx[0].u_fifo.pay_empty_o : dut.u_a.gen_rx[1].u_fifo.pay_empty_o;
  endfunction

  function automatic logic [127:0] rx_hf_data(int dir, int v);
    if (dir == 0) return v == 0 ? dut.u_b.gen_rx[0].u_fifo.hf_rdata_o : dut.u_b.gen_rx[1].u_fifo.hf_rdata_o;
    return v == 0 ? dut.u_a.gen_rx[0].u_fifo.hf_rdata_o : dut.u_a.gen_rx[1].u_fifo.hf_rdata_o;
  endfunction

  function automatic logic [127:0] rx_pay_data(int dir, int v);
    if (dir == 0) return v == 0 ? dut.u_b.gen_rx[0].u_fifo.pay_rdata_o : dut.u_b.gen_rx[1].u_fifo.pay_rdata_o;
    return v == 0 ? dut.u_a.gen_rx[0].u_fifo.pay_rdata_o : dut.u_a.gen_rx[1].u_fifo.pay_rdata_o;
  endfunction

  // Pop the head of VC v's header/footer (hf) or payload FIFO at the next rising edge.
  task automatic pop(int dir, int v, logic hf);
    if (dir == 0) begin
      if (hf) b_rx_rd_hf[v] = 1'b1; else b_rx_rd_pay[v] = 1'b1;
    end else begin
      if (hf) a_rx_rd_hf[v] = 1'b1; else a_rx_rd_pay[v] = 1'b1;
    end
    @(posedge clk);
    #0.1;
    if (dir == 0) begin
      b_rx_rd_hf  = '0;
      b_rx_rd_pay = '0;
    end else begin
      a_rx_rd_hf  = '0;
      a_rx_rd_pay = '0;
    end
  endtask

  initial begin
    a_tx_wr_hf = '0; a_tx_wr_pay = '0; a_tx_wdata = '0;
    b_tx_wr_hf = '0; b_tx_wr_pay = '0; b_tx_wdata = '0;
    a_rx_rd_hf = '0; a_rx_rd_pay = '0; b_rx_rd_hf = '0; b_rx_rd_pay = '0;
    got_pkts[0]  = 0;
    got_pkts[1]  = 0;
    got_words[0] = 0;
    got_words[1] = 0;
    first_hdr[0] = 0;
    first_hdr[1] = 0;
    #1 rst_n = 1'b0;
    repeat (4) @(posedge clk);
    rst_n = 1'b1;
    fork
      write_all(0);
      write_all(1);
      read_all(0);
      read_all(1);
    join
    $display("dir A>B packets %0d words %0d first_hdr %0d", got_pkts[0], got_words[0], first_hdr[0]);
    $display("dir B>A packets %0d words %0d first_hdr %0d", got_pkts[1], got_words[1], first_hdr[1]);
    if (errors == 0 && got_pkts[0] == NUM_PKTS && got_pkts[1] == NUM_PKTS) begin
      $display("PASS");
    end else begin
      $display("FAIL %0d errors", errors);
    end
    $finish;
  end

  initial begin
    wait (cycle == MAX_CYCLES);
    $display("FAIL cycle limit %0d reached: A>B %0d, B>A %0d packets", MAX_CYCLES, got_pkts[0],
             got_pkts[1]);
    $finish;
  end
endmodule
