// exanet_router: the APErouter (Biagioni 2017 §5.3.3, Figure 5.6; Pisani 2016 §2.3, §3.4.2): switch
// ports with packet FIFOs, one switch gate per crossbar input, the routing logic, one arbiter per
// crossbar output, the crossbar.
//
//   intra-tile port p, TX side (from the PS) --> gen_in[p].u_in   (FIFO + gate) --+
//   inter-tile port q VC v, RX side (TCL RX) --> gen_in[s].u_in   (FIFO + gate) --+--> crossbar
//                                                                                  |
//   intra-tile port p, RX side (to the PS)   <-- gen_out[p].u_out (arbiter + FIFO) <-+
//   inter-tile port q VC v, TX side (TCL TX) <-- gen_out[s].u_out (arbiter + FIFO) <-+
//
// Crossbar slots are numbered intra-tile ports first, then inter-tile port q VC v at
// s = N_INTRA + q * NUM_VCS + v; array ports over inter-tile ports and VCs use element
// q * NUM_VCS + v. An intra-tile port without an RX side (INTRA_RX bit clear, TX-only) has an
// input slot but no output slot; its intra_rx_* outputs read as an empty FIFO.
//
// Cycle contract: the header of a packet written into an input FIFO in cycle 0 of an idle router
// is written into its output FIFO in cycle 11, on every path (exanet_rt_in, exanet_rt_out give
// the stages). Every signal between slots is a register: a gate sees its grant (granted_i) and
// its footer's write (eop_i) as the OR over the outputs' grant_*_q and owr_*_q registers.
//
// The gates' and outputs' statistics and FIFO fills come out as stat_*_o, for the node's
// SLOT_* status registers (src/node/mod.rs, Node::status).
//
// Pipeline, routing, room check, drops: docs/router.md. Model twin: src/router/mod.rs (Router),
// with src/router/gate.rs, output.rs, route.rs.

module exanet_router
  import exanet_base_router_pkg::*;
#(
  /// Intra-tile ports (to the processing system), 1..8.
  parameter bit [31:0]              N_INTRA           = 3,
  /// Bit p set: intra-tile port p has an RX side (TX/RX); clear: TX-only.
  parameter logic [N_INTRA-1:0]     INTRA_RX          = '1,
  /// Inter-tile ports (to APElinks), 0..6.
  parameter bit [31:0]              N_INTER           = 2,
  /// Dimension inter-tile port q leads along (0 = X, 1 = Y, 2 = Z), in bits 2q+1:2q; sized for
  /// MAX_INTER ports, bits of missing ports are ignored.
  parameter logic [2*MAX_INTER-1:0] INTER_DIM         = 12'b00_00_00_00_01_00,
  /// Direction of inter-tile port q (DIR_PLUS = 0, DIR_MINUS = 1, DIR_BOTH = 2), in bits
  /// 2q+1:2q; sized for MAX_INTER ports, bits of missing ports are ignored.
  parameter logic [2*MAX_INTER-1:0] INTER_DIR         = 12'b00_00_00_00_10_10,
  /// Dimensions (coordinates), 1..3.
  parameter bit [31:0]              DIMS              = 2,
  /// Virtual channels of each inter-tile port, 1..8.
  parameter bit [31:0]              NUM_VCS           = 2,
  /// Intra-tile header/footer FIFO depth (both sides), words (power of two).
  parameter bit [31:0]              INTRA_HF_DEPTH    = 128,
  /// Intra-tile payload FIFO depth (both sides), words (power of two).
  parameter bit [31:0]              INTRA_DEPTH       = 4096,
  /// Inter-tile RX header/footer FIFO depth per VC, words (power of two).
  parameter bit [31:0]              INTER_RX_HF_DEPTH = 128,
  /// Inter-tile RX payload FIFO depth per VC, words (power of two); a neighbour's are the same,
  /// and they are the credit capacity.
  parameter bit [31:0]              INTER_RX_DEPTH    = 1024,
  /// Inter-tile TX header/footer FIFO depth per VC, words (power of two).
  parameter bit [31:0]              INTER_TX_HF_DEPTH = 128,
  /// Inter-tile TX payload FIFO depth per VC, words (power of two).
  parameter bit [31:0]              INTER_TX_DEPTH    = 1024,
  /// FIFO write-to-not-empty delay L_F in cycles, 2..16.
  parameter bit [31:0]              FIFO_LATENCY      = 3,
  /// The header size field counts words instead of bytes.
  parameter bit                     SIZE_IN_WORDS     = 1'b0,
  // Inter-tile array ports keep one element when there is no inter-tile port (unused).
  localparam bit [31:0]             NQ                = (N_INTER > 0) ? N_INTER : 1,
  localparam bit [31:0]             N_SLOTS           = N_INTRA + N_INTER * NUM_VCS,
  localparam bit [31:0]             INTRA_HF_AW       = $clog2(INTRA_HF_DEPTH),
  localparam bit [31:0]             INTRA_AW          = $clog2(INTRA_DEPTH)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // Run-time registers (the Target Controller's).
  input  logic [23:0]            cfg_coord_i,             // this node, 8 bits per dimension
  input  logic [23:0]            cfg_size_i,              // lattice size, 8 bits per dimension
  input  logic [2:0]             cfg_torus_i,             // bit d: dimension d wraps around
  input  logic [5:0]             cfg_order_i,             // dimension order, 2 bits each
  input  logic [7:0]             cfg_intra_en_i,          // intra-tile ports enabled
  input  logic [7:0]             cfg_inter_en_i,          // inter-tile ports enabled
  input  logic                   cfg_arb_fixed_i,         // fixed-priority arbiters
  input  logic                   cfg_usedword_i,          // usedword (1) or start/stop credits
  input  logic [15:0]            cfg_tred_i,              // the links' TRED, credit units
  // Intra-tile ports: TX FIFO write port (the PS), RX FIFO pops (the PS).
  input  logic [N_INTRA-1:0]     intra_wr_hf_i,
  input  logic [N_INTRA-1:0]     intra_wr_pay_i,
  input  logic [127:0]           intra_wdata_i [N_INTRA],
  input  logic [N_INTRA-1:0]     intra_rd_hf_i,
  input  logic [N_INTRA-1:0]     intra_rd_pay_i,
  // Inter-tile ports: the TCL RX's writes into the RX FIFOs, the TCL TX's pops of the TX FIFOs
  // (bit v: VC v) and its credit state (usedword: 16 bits per VC; start/stop: bit per VC).
  input  logic [NQ-1:0]          inter_wr_valid_i,
  input  logic [NQ-1:0]          inter_wr_hf_i,
  input  logic [2:0]             inter_wr_vc_i [NQ],
  input  logic [127:0]           inter_wr_data_i [NQ],
  input  logic [NUM_VCS-1:0]     inter_hf_rd_i [NQ],
  input  logic [NUM_VCS-1:0]     inter_pay_rd_i [NQ],
  input  logic [NUM_VCS*16-1:0]  inter_credit_cnt_i [NQ],
  input  logic [7:0]             inter_credit_stop_i [NQ],
  // Intra-tile TX FIFOs' write side, RX FIFOs' read side.
  output logic [INTRA_HF_AW:0]   intra_tx_hf_usedw_o [N_INTRA],
  output logic [INTRA_AW:0]      intra_tx_pay_usedw_o [N_INTRA],
  output logic [N_INTRA-1:0]     intra_rx_hf_empty_o,
  output logic [N_INTRA-1:0]     intra_rx_pay_empty_o,
  output logic [INTRA_HF_AW:0]   intra_rx_hf_rdusedw_o [N_INTRA],
  output logic [INTRA_AW:0]      intra_rx_pay_rdusedw_o [N_INTRA],
  output logic [127:0]           intra_rx_hf_rdata_o [N_INTRA],
  output logic [127:0]           intra_rx_pay_rdata_o [N_INTRA],
  // Inter-tile TX FIFOs' read side (for the TCL TX), RX FIFOs' occupancy (for its credits).
  output logic [NUM_VCS-1:0]     inter_tx_hf_empty_o [NQ],
  output logic [NUM_VCS-1:0]     inter_tx_pay_empty_o [NQ],
  output logic [127:0]           inter_tx_hf_rdata_o [NQ*NUM_VCS],
  output logic [127:0]           inter_tx_pay_rdata_o [NQ*NUM_VCS],
  output logic [NUM_VCS*16-1:0]  inter_rx_units_o [NQ],
  // Statistics and FIFO fill of every slot, for the node's status registers (SLOT_* block;
  // zero for the output of a TX-only port).
  output logic [31:0]            stat_in_pkts_o [N_SLOTS],        // through the gate
  output logic [31:0]            stat_in_words_o [N_SLOTS],
  output logic [31:0]            stat_in_drops_o [N_SLOTS],       // dropped by the gate
  output logic [1:0]             stat_in_reason_o [N_SLOTS],      // the last drop's reason
  output logic [15:0]            stat_in_hf_usedw_o [N_SLOTS],    // input FIFO, write side
  output logic [15:0]            stat_in_pay_usedw_o [N_SLOTS],
  output logic [31:0]            stat_out_pkts_o [N_SLOTS],       // into the output FIFO
  output logic [31:0]            stat_out_words_o [N_SLOTS],
  output logic [15:0]            stat_out_hf_usedw_o [N_SLOTS],   // output FIFO, write side
  output logic [15:0]            stat_out_pay_usedw_o [N_SLOTS]
);

  // Crossbar slots with an output, as a mask (intra-tile ports' RX sides, every inter-tile VC).
  localparam logic [63:0] HAS_OUT = 64'(INTRA_RX) | ~((64'd1 << N_INTRA) - 64'd1);
  // Credit units of a header/footer word in a neighbour's RX packet FIFO.
  localparam bit [31:0] REMOTE_SCALE = INTER_RX_DEPTH / INTER_RX_HF_DEPTH;

  // The first slot at or after `from` with an output (N_SLOTS if none): gen_out visits only
  // those, so that each output keeps the scope gen_out[s].u_out (a generate-if inside the loop
  // would add a scope level).
  function automatic int unsigned next_out(int unsigned from);
    int unsigned next;
    next = N_SLOTS;
    for (int unsigned s = N_SLOTS; s > from; s--) begin
      if (((HAS_OUT >> (s - 1)) & 64'd1) != 64'd0) begin
        next = s - 1;
      end
    end
    return next;
  endfunction

  // Gates' registers, for the arbiters and the crossbar.
  logic [N_SLOTS-1:0] gate_req;
  logic [7:0]         gate_out [N_SLOTS];
  logic [WORDS_W-1:0] gate_words [N_SLOTS];
  logic [N_SLOTS-1:0] gate_xin_valid;
  logic [127:0]       gate_xin_data [N_SLOTS];
  logic [N_SLOTS-1:0] gate_xin_hf;
  logic [N_SLOTS-1:0] gate_xin_last;
  logic [7:0]         gate_xin_out [N_SLOTS];
  // Outputs' registers, for the gates (zero for a slot without an output).
  logic [N_SLOTS-1:0] out_grant_valid;
  logic [7:0]         out_grant_in [N_SLOTS];
  logic [N_SLOTS-1:0] out_eop;
  logic [7:0]         out_owr_src [N_SLOTS];
  // What each gate sees of the outputs.
  logic [N_SLOTS-1:0] granted, eop;

  `EXANET_ALWAYS_COMB begin
    granted = '0;
    eop     = '0;
    for (int unsigned s = 0; s < N_SLOTS; s++) begin
      for (int unsigned o = 0; o < N_SLOTS; o++) begin
        if (out_grant_valid[o] && out_grant_in[o] == 8'(s)) begin
          granted[s] = 1'b1;
        end
        if (out_eop[o] && out_owr_src[o] == 8'(s)) begin
          eop[s] = 1'b1;
        end
      end
    end
  end

  // -----------------------------------------------------------------------------------------------
  // Input slots.
  // -----------------------------------------------------------------------------------------------

  for (genvar s = 0; s < N_SLOTS; s++) begin : gen_in
    localparam bit          INTER     = s >= N_INTRA;
    localparam bit [31:0] HF_DEPTH  = INTER ? INTER_RX_HF_DEPTH : INTRA_HF_DEPTH;
    localparam bit [31:0] PAY_DEPTH = INTER ? INTER_RX_DEPTH : INTRA_DEPTH;

    logic                     wr_hf, wr_pay, enabled;
    logic [127:0]             wdata;
    logic [$clog2(HF_DEPTH):0]  hf_usedw;
    logic [$clog2(PAY_DEPTH):0] pay_usedw;
    logic [15:0]              units;

    if (!INTER) begin : gen_intra
      assign wr_hf   = intra_wr_hf_i[s];
      assign wr_pay  = intra_wr_pay_i[s];
      assign wdata   = intra_wdata_i[s];
      assign enabled = cfg_intra_en_i[s];
      assign intra_tx_hf_usedw_o[s]  = hf_usedw;
      assign intra_tx_pay_usedw_o[s] = pay_usedw;
      logic unused_units;  // credits are for inter-tile ports
      assign unused_units = ^units;
    end else begin : gen_inter
      localparam bit [31:0] Q = (s - N_INTRA) / NUM_VCS;
      localparam bit [31:0] V = (s - N_INTRA) % NUM_VCS;
      logic mine;  // the TCL RX writes this VC
      assign mine    = inter_wr_valid_i[Q] && (inter_wr_vc_i[Q] == 3'(V));
      assign wr_hf   = mine && inter_wr_hf_i[Q];
      assign wr_pay  = mine && !inter_wr_hf_i[Q];
      assign wdata   = inter_wr_data_i[Q];
      assign enabled = cfg_inter_en_i[Q];
      assign inter_rx_units_o[Q][16*V +: 16] = units;
    end
    // The input FIFO's write-side fill, status of every slot (the TCL RX writes without looking:
    // its credits keep the FIFO from overflowing).
    assign stat_in_hf_usedw_o[s]  = 16'(hf_usedw);
    assign stat_in_pay_usedw_o[s] = 16'(pay_usedw);

    exanet_rt_in #(
      .N_INTRA       (N_INTRA),
      .INTRA_RX      (MAX_INTRA'(INTRA_RX)),
      .N_INTER       (N_INTER),
      .INTER_DIM     (INTER_DIM),
      .INTER_DIR     (INTER_DIR),
      .DIMS          (DIMS),
      .NUM_VCS       (NUM_VCS),
      .HF_DEPTH      (HF_DEPTH),
      .PAY_DEPTH     (PAY_DEPTH),
      .FIFO_LATENCY  (FIFO_LATENCY),
      .SIZE_IN_WORDS (SIZE_IN_WORDS)
    ) u_in (
      .clk_i          (clk_i),
      .rst_ni         (rst_ni),
      .cfg_coord_i    (cfg_coord_i),
      .cfg_size_i     (cfg_size_i),
      .cfg_torus_i    (cfg_torus_i),
      .cfg_order_i    (cfg_order_i),
      .cfg_intra_en_i (cfg_intra_en_i),
      .cfg_inter_en_i (cfg_inter_en_i),
      .wr_hf_i        (wr_hf),
      .wr_pay_i       (wr_pay),
      .wdata_i        (wdata),
      .enabled_i      (enabled),
      .granted_i      (granted[s]),
      .eop_i          (eop[s]),
      .req_o          (gate_req[s]),
      .out_o          (gate_out[s]),
      .words_o        (gate_words[s]),
      .xin_valid_o    (gate_xin_valid[s]),
      .xin_data_o     (gate_xin_data[s]),
      .xin_hf_o       (gate_xin_hf[s]),
      .xin_last_o     (gate_xin_last[s]),
      .xin_out_o      (gate_xin_out[s]),
      .hf_usedw_o     (hf_usedw),
      .pay_usedw_o    (pay_usedw),
      .units_o        (units),
      .stat_pkts_o    (stat_in_pkts_o[s]),
      .stat_words_o   (stat_in_words_o[s]),
      .stat_drops_o   (stat_in_drops_o[s]),
      .drop_reason_o  (stat_in_reason_o[s])
    );
  end

  // -----------------------------------------------------------------------------------------------
  // Output slots: only the slots with an output (a generate loop that skips TX-only ports).
  // -----------------------------------------------------------------------------------------------

  for (genvar s = next_out(0); s < N_SLOTS; s = next_out(s + 1)) begin : gen_out
    localparam bit          INTER     = s >= N_INTRA;
    localparam bit [31:0] HF_DEPTH  = INTER ? INTER_TX_HF_DEPTH : INTRA_HF_DEPTH;
    localparam bit [31:0] PAY_DEPTH = INTER ? INTER_TX_DEPTH : INTRA_DEPTH;

    logic                       rd_hf, rd_pay, credit_stop, hf_empty, pay_empty;
    logic [15:0]                credit_cnt;
    logic [$clog2(HF_DEPTH):0]  hf_rdusedw;
    logic [$clog2(PAY_DEPTH):0] pay_rdusedw;
    logic [127:0]               hf_rdata, pay_rdata;
    logic [$clog2(HF_DEPTH):0]  hf_usedw;
    logic [$clog2(PAY_DEPTH):0] pay_usedw;

    if (!INTER) begin : gen_intra
      assign rd_hf       = intra_rd_hf_i[s];
      assign rd_pay      = intra_rd_pay_i[s];
      assign credit_cnt  = '0;
      assign credit_stop = 1'b0;
      assign intra_rx_hf_empty_o[s]    = hf_empty;
      assign intra_rx_pay_empty_o[s]   = pay_empty;
      assign intra_rx_hf_rdusedw_o[s]  = hf_rdusedw;
      assign intra_rx_pay_rdusedw_o[s] = pay_rdusedw;
      assign intra_rx_hf_rdata_o[s]    = hf_rdata;
      assign intra_rx_pay_rdata_o[s]   = pay_rdata;
    end else begin : gen_inter
      localparam bit [31:0] Q = (s - N_INTRA) / NUM_VCS;
      localparam bit [31:0] V = (s - N_INTRA) % NUM_VCS;
      assign rd_hf       = inter_hf_rd_i[Q][V];
      assign rd_pay      = inter_pay_rd_i[Q][V];
      assign credit_cnt  = inter_credit_cnt_i[Q][16*V +: 16];
      assign credit_stop = inter_credit_stop_i[Q][V];
      assign inter_tx_hf_empty_o[Q][V]          = hf_empty;
      assign inter_tx_pay_empty_o[Q][V]         = pay_empty;
      assign inter_tx_hf_rdata_o[Q*NUM_VCS+V]  = hf_rdata;
      assign inter_tx_pay_rdata_o[Q*NUM_VCS+V] = pay_rdata;
      logic unused_rdusedw;  // the TCL TX looks at empty only
      assign unused_rdusedw = ^{hf_rdusedw, pay_rdusedw};
    end

    exanet_rt_out #(
      .SLOT         (s),
      .N_SLOTS      (N_SLOTS),
      .IS_INTER     (INTER),
      .HF_DEPTH     (HF_DEPTH),
      .PAY_DEPTH    (PAY_DEPTH),
      .FIFO_LATENCY (FIFO_LATENCY),
      .REMOTE_SCALE (REMOTE_SCALE)
    ) u_out (
      .clk_i            (clk_i),
      .rst_ni           (rst_ni),
      .cfg_arb_fixed_i  (cfg_arb_fixed_i),
      .cfg_usedword_i   (cfg_usedword_i),
      .cfg_tred_i       (cfg_tred_i),
      .rd_hf_i          (rd_hf),
      .rd_pay_i         (rd_pay),
      .credit_cnt_i     (credit_cnt),
      .credit_stop_i    (credit_stop),
      .gate_req_i       (gate_req),
      .gate_out_i       (gate_out),
      .gate_words_i     (gate_words),
      .gate_xin_valid_i (gate_xin_valid),
      .gate_xin_data_i  (gate_xin_data),
      .gate_xin_hf_i    (gate_xin_hf),
      .gate_xin_last_i  (gate_xin_last),
      .gate_xin_out_i   (gate_xin_out),
      .grant_valid_o    (out_grant_valid[s]),
      .grant_in_o       (out_grant_in[s]),
      .eop_o            (out_eop[s]),
      .owr_src_o        (out_owr_src[s]),
      .hf_empty_o       (hf_empty),
      .hf_rdusedw_o     (hf_rdusedw),
      .hf_rdata_o       (hf_rdata),
      .pay_empty_o      (pay_empty),
      .pay_rdusedw_o    (pay_rdusedw),
      .pay_rdata_o      (pay_rdata),
      .stat_pkts_o      (stat_out_pkts_o[s]),
      .stat_words_o     (stat_out_words_o[s]),
      .hf_usedw_o       (hf_usedw),
      .pay_usedw_o      (pay_usedw)
    );
    assign stat_out_hf_usedw_o[s]  = 16'(hf_usedw);
    assign stat_out_pay_usedw_o[s] = 16'(pay_usedw);
  end

  // A TX-only intra-tile port: no output; its RX side reads as an empty FIFO.
  for (genvar p = 0; p < N_INTRA; p++) begin : gen_no_rx
    if (!INTRA_RX[p]) begin : gen_tie
      assign out_grant_valid[p]        = 1'b0;
      assign out_grant_in[p]           = '0;
      assign out_eop[p]                = 1'b0;
      assign out_owr_src[p]            = '0;
      assign intra_rx_hf_empty_o[p]    = 1'b1;
      assign intra_rx_pay_empty_o[p]   = 1'b1;
      assign intra_rx_hf_rdusedw_o[p]  = '0;
      assign intra_rx_pay_rdusedw_o[p] = '0;
      assign intra_rx_hf_rdata_o[p]    = '0;
      assign intra_rx_pay_rdata_o[p]   = '0;
      assign stat_out_pkts_o[p]        = '0;
      assign stat_out_words_o[p]       = '0;
      assign stat_out_hf_usedw_o[p]    = '0;
      assign stat_out_pay_usedw_o[p]   = '0;
      logic unused_rd;  // nobody reads a missing FIFO
      assign unused_rd = intra_rd_hf_i[p] ^ intra_rd_pay_i[p];
    end
  end

  // No inter-tile port: the one-element inter-tile array ports are unused.
  if (N_INTER == 0) begin : gen_no_inter
    assign inter_tx_hf_empty_o[0]  = '1;
    assign inter_tx_pay_empty_o[0] = '1;
    assign inter_rx_units_o[0]     = '0;
    for (genvar v = 0; v < NUM_VCS; v++) begin : gen_vc
      assign inter_tx_hf_rdata_o[v]  = '0;
      assign inter_tx_pay_rdata_o[v] = '0;
    end
    logic unused_inter;
    assign unused_inter = ^{inter_wr_valid_i, inter_wr_hf_i, inter_wr_vc_i[0], inter_wr_data_i[0],
                            inter_hf_rd_i[0], inter_pay_rd_i[0], inter_credit_cnt_i[0],
                            inter_credit_stop_i[0], cfg_inter_en_i};
  end

  // Start/stop credits carry a stop bit for each of 8 VCs; only NUM_VCS exist.
  if (NUM_VCS < 8) begin : gen_stop_unused
    logic [NQ-1:0] unused_stop;
    for (genvar q = 0; q < NQ; q++) begin : gen_q
      assign unused_stop[q] = ^inter_credit_stop_i[q][7:NUM_VCS];
    end
  end

endmodule
