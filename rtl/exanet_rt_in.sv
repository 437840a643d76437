// exanet_rt_in: one crossbar input slot of the APErouter (Biagioni 2017 §5.3.3, "Switch Gate ...
// manages the data flow preventing FIFOs overflow and guarantees proper transmission of the
// packet"): the switch port's packet FIFO u_fifo and the switch gate that reads it. A slot is an
// intra-tile port's TX side (written by the processing system) or one VC of an inter-tile port's
// RX side (written by the TCL RX).
//
//   wr_*_i, wdata_i --> u_fifo --> gate: IDLE -> ROUTE -> REQ -> WAIT -> XFER -> EOP -> IDLE
//                         ^          hdr_q    out_q     req_o   granted_i  xin_*_o   eop_i
//                         +-- rd_hf/rd_pay (combinational: the gate's own FIFO)    (DROP)
//
// One packet at a time (cycle numbers for a header written into the FIFO in cycle 0 of an idle
// router): 3 the header at the show-ahead FIFO head is copied into hdr_q; 4 routing of hdr_q
// (exanet_base_router_pkg::route) into out_q, ovc_q, words_q; 5 req_q raised towards the output's
// arbiter; 6 the arbiter grants; 7 the gate sees granted_i; 8 the header is popped, its VC
// rewritten for an inter-tile output (ECC re-encoded), and put in the crossbar input register
// xin_*_q; then one word a cycle (payload as it arrives, then the footer). After the footer the
// gate waits in EOP until the footer is in its output's write register (eop_i): the pipeline is
// not overlapped across packets of one gate (Biagioni 2017 §5.4.2). A packet that cannot be routed
// is read out and discarded (DROP), counted in stat_drops_q with its reason in drop_reason_q.
// The FIFO's read strobes are driven by the gate within the cycle (the FIFO is inside this
// block), so a word leaves every cycle.
//
// Pipeline, stage by stage: docs/router.md. Model twin: src/router/gate.rs (InSlot, Gate), which
// documents every rule; keep the two line for line. The routing function is src/router/route.rs.

module exanet_rt_in
  import exanet_base_pkg::*;
  import exanet_base_router_pkg::*;
#(
  /// Intra-tile ports of the router, 1..8 (output slots 0..N_INTRA-1).
  parameter bit [31:0]            N_INTRA       = 3,
  /// Bit p set: intra-tile port p has an RX side (can be a destination).
  parameter logic [MAX_INTRA-1:0] INTRA_RX      = 8'h07,
  /// Inter-tile ports of the router, 0..6.
  parameter bit [31:0]            N_INTER       = 2,
  /// Dimension inter-tile port q leads along, in bits 2q+1:2q.
  parameter logic [2*MAX_INTER-1:0] INTER_DIM   = 12'b00_00_00_00_01_00,
  /// Direction of inter-tile port q (DIR_PLUS/MINUS/BOTH), in bits 2q+1:2q.
  parameter logic [2*MAX_INTER-1:0] INTER_DIR   = 12'b00_00_00_00_10_10,
  /// Dimensions (coordinates), 1..3.
  parameter bit [31:0]            DIMS          = 2,
  /// Virtual channels of each inter-tile port, 1..8.
  parameter bit [31:0]            NUM_VCS       = 2,
  /// Header/footer FIFO depth of this slot, words (power of two).
  parameter bit [31:0]            HF_DEPTH      = 128,
  /// Payload FIFO depth of this slot, words (power of two).
  parameter bit [31:0]            PAY_DEPTH     = 4096,
  /// FIFO write-to-not-empty delay L_F in cycles.
  parameter bit [31:0]            FIFO_LATENCY  = 3,
  /// The header size field counts words instead of bytes.
  parameter bit                   SIZE_IN_WORDS = 1'b0,
  localparam bit [31:0]           HF_AW         = $clog2(HF_DEPTH),
  localparam bit [31:0]           PAY_AW        = $clog2(PAY_DEPTH)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic [23:0]        cfg_coord_i,     // this node, 8 bits per dimension
  input  logic [23:0]        cfg_size_i,      // lattice size, 8 bits per dimension
  input  logic [2:0]         cfg_torus_i,     // bit d: dimension d wraps around
  input  logic [5:0]         cfg_order_i,     // dimension order, 2 bits per entry, first lowest
  input  logic [7:0]         cfg_intra_en_i,  // intra-tile ports enabled
  input  logic [7:0]         cfg_inter_en_i,  // inter-tile ports enabled
  input  logic               wr_hf_i,         // the port's writer: header/footer word
  input  logic               wr_pay_i,        // the port's writer: payload word
  input  logic [127:0]       wdata_i,
  input  logic               enabled_i,       // the port of this slot is enabled
  input  logic               granted_i,       // an output's arbiter grants this slot
  input  logic               eop_i,           // this slot's footer is in an output's write register
  output logic               req_o,           // request towards output out_o
  output logic [7:0]         out_o,
  output logic [WORDS_W-1:0] words_o,         // payload words of the requesting packet
  output logic               xin_valid_o,     // crossbar input register
  output logic [127:0]       xin_data_o,
  output logic               xin_hf_o,
  output logic               xin_last_o,
  output logic [7:0]         xin_out_o,
  output logic [HF_AW:0]     hf_usedw_o,      // FIFO write side, for the port's writer
  output logic [PAY_AW:0]    pay_usedw_o,
  output logic [15:0]        units_o,         // FIFO occupancy in credit units
  // Statistics, for the node's status registers (SLOT_IN_* block).
  output logic [31:0]        stat_pkts_o,     // packets through the gate
  output logic [31:0]        stat_words_o,    // words through the gate
  output logic [31:0]        stat_drops_o,    // packets dropped
  output logic [1:0]         drop_reason_o    // reason of the last drop
);

  // Word of the packet the gate moves next (src/router/gate.rs K_*).
  localparam logic [1:0] K_HDR = 2'd0;
  localparam logic [1:0] K_PAY = 2'd1;
  localparam logic [1:0] K_FTR = 2'd2;

  gate_state_e        state_q, state_d;
  logic [127:0]       hdr_q, hdr_d;
  logic [7:0]         out_q, out_d;
  logic [2:0]         ovc_q, ovc_d;
  logic [WORDS_W-1:0] words_q, words_d;
  logic               req_q, req_d;
  logic [1:0]         kind_q, kind_d;
  logic [WORDS_W-1:0] left_q, left_d;
  logic               xin_valid_q, xin_valid_d;
  logic [127:0]       xin_data_q, xin_data_d;
  logic               xin_hf_q, xin_hf_d;
  logic               xin_last_q, xin_last_d;
  logic [7:0]         xin_out_q, xin_out_d;
  logic [1:0]         drop_reason_q, drop_reason_d;
  logic [31:0]        stat_pkts_q, stat_pkts_d;
  logic [31:0]        stat_words_q, stat_words_d;
  logic [31:0]        stat_drops_q, stat_drops_d;

  // The FIFO's read side.
  logic               hf_empty, pay_empty, rd_hf, rd_pay;
  logic [127:0]       hf_rdata, pay_rdata;

  assign req_o       = req_q;
  assign out_o       = out_q;
  assign words_o     = words_q;
  assign xin_valid_o = xin_valid_q;
  assign xin_data_o  = xin_data_q;
  assign xin_hf_o    = xin_hf_q;
  assign xin_last_o  = xin_last_q;
  assign xin_out_o   = xin_out_q;
  assign stat_pkts_o   = stat_pkts_q;
  assign stat_words_o  = stat_words_q;
  assign stat_drops_o  = stat_drops_q;
  assign drop_reason_o = drop_reason_q;

  route_t             rt;
  logic [WORDS_W-1:0] hdr_words;
  logic               hf_avail, pay_avail;
  logic               take, word_hf, last;
  logic [127:0]       word;

  `EXANET_ALWAYS_COMB begin
    state_d       = state_q;
    hdr_d         = hdr_q;
    out_d         = out_q;
    ovc_d         = ovc_q;
    words_d       = words_q;
    req_d         = req_q;
    kind_d        = kind_q;
    left_d        = left_q;
    xin_valid_d   = 1'b0;
    xin_data_d    = xin_data_q;
    xin_hf_d      = xin_hf_q;
    xin_last_d    = 1'b0;
    xin_out_d     = xin_out_q;
    drop_reason_d = drop_reason_q;
    stat_pkts_d   = stat_pkts_q;
    stat_words_d  = stat_words_q;
    stat_drops_d  = stat_drops_q;
    rd_hf         = 1'b0;
    rd_pay        = 1'b0;

    hf_avail  = !hf_empty;
    pay_avail = !pay_empty;
    rt        = route(hdr_q, N_INTRA, INTRA_RX, N_INTER, INTER_DIM, INTER_DIR, DIMS, NUM_VCS,
                      cfg_coord_i, cfg_size_i, cfg_torus_i, cfg_order_i, cfg_intra_en_i,
                      cfg_inter_en_i);
    hdr_words = payload_words(hdr_q, SIZE_IN_WORDS);

    // The word at the head for the packet's next word: a header leaving by an inter-tile output
    // carries the route's VC.
    unique case (kind_q)
      K_HDR: begin
        take    = hf_avail;
        word    = (32'(out_q) >= N_INTRA) ? rewrite_header(hf_rdata, ovc_q) : hf_rdata;
        word_hf = 1'b1;
      end
      K_PAY: begin
        take    = pay_avail;
        word    = pay_rdata;
        word_hf = 1'b0;
      end
      default: begin
        take    = hf_avail;
        word    = hf_rdata;
        word_hf = 1'b1;
      end
    endcase
    last = (kind_q == K_FTR);

    unique case (state_q)
      S_IDLE: begin
        if (enabled_i && hf_avail) begin
          hdr_d   = hf_rdata;
          state_d = S_ROUTE;
        end
      end
      S_ROUTE: begin
        if (!rt.drop) begin
          out_d   = rt.slot;
          ovc_d   = rt.vc;
          words_d = hdr_words;
          state_d = S_REQ;
        end else begin
          drop_reason_d = rt.reason;
          kind_d        = K_HDR;
          left_d        = hdr_words;
          stat_drops_d  = stat_drops_q + 32'd1;
          state_d       = S_DROP;
        end
      end
      S_REQ: begin
        req_d   = 1'b1;
        state_d = S_WAIT;
      end
      S_WAIT: begin
        if (granted_i) begin
          req_d   = 1'b0;
          kind_d  = K_HDR;
          left_d  = words_q;
          state_d = S_XFER;
        end
      end
      S_XFER, S_DROP: begin
        if (take) begin
          rd_hf  = word_hf;
          rd_pay = !word_hf;
          unique case (kind_q)
            K_HDR: kind_d = (left_q != '0) ? K_PAY : K_FTR;
            K_PAY: begin
              left_d = left_q - WORDS_W'(1);
              if (left_q == WORDS_W'(1)) begin
                kind_d = K_FTR;
              end
            end
            default: kind_d = K_HDR;
          endcase
          if (state_q == S_XFER) begin
            xin_valid_d  = 1'b1;
            xin_data_d   = word;
            xin_hf_d     = word_hf;
            xin_last_d   = last;
            xin_out_d    = out_q;
            stat_words_d = stat_words_q + 32'd1;
            if (last) begin
              stat_pkts_d = stat_pkts_q + 32'd1;
              state_d     = S_EOP;
            end
          end else if (last) begin
            state_d = S_IDLE;
          end
        end
      end
      S_EOP: begin
        if (eop_i) begin
          state_d = S_IDLE;
        end
      end
      default: ;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q       <= S_IDLE;
      hdr_q         <= '0;
      out_q         <= '0;
      ovc_q         <= '0;
      words_q       <= '0;
      req_q         <= 1'b0;
      kind_q        <= K_HDR;
      left_q        <= '0;
      xin_valid_q   <= 1'b0;
      xin_data_q    <= '0;
      xin_hf_q      <= 1'b0;
      xin_last_q    <= 1'b0;
      xin_out_q     <= '0;
      drop_reason_q <= '0;
      stat_pkts_q   <= '0;
      stat_words_q  <= '0;
      stat_drops_q  <= '0;
    end else begin
      state_q       <= state_d;
      hdr_q         <= hdr_d;
      out_q         <= out_d;
      ovc_q         <= ovc_d;
      words_q       <= words_d;
      req_q         <= req_d;
      kind_q        <= kind_d;
      left_q        <= left_d;
      xin_valid_q   <= xin_valid_d;
      xin_data_q    <= xin_data_d;
      xin_hf_q      <= xin_hf_d;
      xin_last_q    <= xin_last_d;
      xin_out_q     <= xin_out_d;
      drop_reason_q <= drop_reason_d;
      stat_pkts_q   <= stat_pkts_d;
      stat_words_q  <= stat_words_d;
      stat_drops_q  <= stat_drops_d;
    end
  end

  exanet_pkt_fifo #(
    .HF_DEPTH  (HF_DEPTH),
    .PAY_DEPTH (PAY_DEPTH),
    .LATENCY   (FIFO_LATENCY)
  ) u_fifo (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .wr_hf_i       (wr_hf_i),
    .wr_pay_i      (wr_pay_i),
    .wdata_i       (wdata_i),
    .rd_hf_i       (rd_hf),
    .rd_pay_i      (rd_pay),
    .hf_full_o     (),
    .hf_empty_o    (hf_empty),
    .hf_usedw_o    (hf_usedw_o),
    .hf_rdusedw_o  (),
    .hf_rdata_o    (hf_rdata),
    .pay_full_o    (),
    .pay_empty_o   (pay_empty),
    .pay_usedw_o   (pay_usedw_o),
    .pay_rdusedw_o (),
    .pay_rdata_o   (pay_rdata),
    .units_o       (units_o)
  );

`ifdef EXANET_ASSERT
  // The gate pops only what is there, and a packet routed out goes to an existing slot.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(rd_hf && hf_empty) && !(rd_pay && pay_empty))
        else $error("exanet_rt_in: read of an empty FIFO");
      assert (!(state_q == S_REQ) || (32'(out_q) < N_INTRA + N_INTER * NUM_VCS))
        else $error("exanet_rt_in: route to a missing slot");
    end
  end
`endif

endmodule
