// exanet_target_ctrl: the Target Controller, the node's register file on an AXI-lite-like
// interface (Biagioni 2017 §5.4). Register map: exanet_base_regs_pkg, docs/registers.md.
//
//   reg_wr_i/reg_rd_i, reg_addr_i, reg_wdata_i -->+-------------+--> reg_ack_o, reg_rdata_o,
//   status_hit_i, status_rdata_i (status mux) ---->| target ctrl |    reg_err_o (next cycle)
//   st_busy_i (a generator is active) ------------>+-------------+--> cfg_*_o, st_*_o
//                                                                 --> st_start_o (one-cycle pulse)
//
// Cycle contract: a request in cycle c (one at a time: a write, or a read; a write wins if both
// are high) is answered in cycle c + 1 (ack_q, rdata_q, err_q); a written configuration register
// holds its new value from c + 1. Bad accesses never hang: an unknown address, a value the
// register does not accept (a dimension order that is not a permutation, coordinates outside the
// lattice, a TRED the buffers cannot take...) or a write to a read-only register is answered with
// err, changes nothing, and is recorded in ERR_STATUS, ERR_ADDR, ERR_COUNT. A status register
// (status_hit_i) is read from status_rdata_i, the node's mux of other blocks' registers.
//
// Model twin: src/node/target.rs (TargetCtrl), which documents every rule; keep the two line for
// line.

module exanet_target_ctrl
  import exanet_base_regs_pkg::*;
#(
  /// Dimensions of the router, 1..3.
  parameter bit [31:0] DIMS              = 2,
  /// Intra-tile ports, 1..8.
  parameter bit [31:0] N_INTRA           = 3,
  /// Inter-tile ports, 0..6.
  parameter bit [31:0] N_INTER           = 2,
  /// Virtual channels of the links, 1..8.
  parameter bit [31:0] NUM_VCS           = 2,
  /// Capacity of the links' RX buffers, credit units (TRED must stay below it).
  parameter bit [31:0] RX_CAPACITY       = 1024,
  /// Reset value of COORD: X [7:0], Y [15:8], Z [23:16].
  parameter logic [31:0] RST_COORD         = 32'h0000_0000,
  /// Reset value of LATTICE: X [7:0], Y [15:8], Z [23:16].
  parameter logic [31:0] RST_LATTICE       = 32'h0001_0202,
  /// Reset value of TORUS: bit d, dimension d wraps around.
  parameter logic [31:0] RST_TORUS         = 32'h0000_0000,
  /// Reset value of DIM_ORDER: 2 bits per position, first in [1:0] (default X, Y, Z).
  parameter logic [31:0] RST_ORDER         = 32'h0000_0024,
  /// Reset value of ARB_MODE[0]: fixed priority (1) or round robin (0).
  parameter bit          RST_ARB_FIXED     = 1'b0,
  /// Reset value of CREDIT_PERIOD, cycles.
  parameter logic [31:0] RST_CREDIT_PERIOD = 32'd35,
  /// Reset value of CREDIT_MAX_INTERVAL, cycles.
  parameter logic [31:0] RST_MAX_INTERVAL  = 32'd110,
  /// Reset value of TRED, credit units.
  parameter logic [31:0] RST_TRED          = 32'd128,
  /// Reset value of CREDIT_MODE: [0] usedword, [1] a credit after every packet, [2] credit
  /// checked only before a packet.
  parameter logic [31:0] RST_CREDIT_MODE   = 32'h0000_0002,
  /// Reset value of PHY_CTRL: [0] gearbox pause, [1] clock compensation.
  parameter logic [31:0] RST_PHY_CTRL      = 32'h0000_0002
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  st_busy_i,        // a self-test generator is active
  input  logic                  reg_wr_i,
  input  logic                  reg_rd_i,
  input  logic [REG_ADDR_W-1:0] reg_addr_i,
  input  logic [31:0]           reg_wdata_i,
  input  logic                  status_hit_i,     // reg_addr_i names a status register ...
  input  logic [31:0]           status_rdata_i,   // ... whose value this is
  output logic                  reg_ack_o,
  output logic [31:0]           reg_rdata_o,
  output logic                  reg_err_o,
  // Configuration registers.
  output logic [31:0]           cfg_coord_o,
  output logic [31:0]           cfg_lattice_o,
  output logic [31:0]           cfg_torus_o,
  output logic [31:0]           cfg_order_o,
  output logic [31:0]           cfg_port_en_o,
  output logic                  cfg_arb_fixed_o,
  output logic [31:0]           cfg_credit_period_o,
  output logic [31:0]           cfg_max_interval_o,
  output logic [31:0]           cfg_tred_o,
  output logic [31:0]           cfg_credit_mode_o,
  output logic [31:0]           cfg_phy_ctrl_o,
  // Self-test configuration and start.
  output logic [31:0]           st_gen_en_o,
  output logic [31:0]           st_pkt_o,
  output logic [31:0]           st_dest_o,
  output logic [31:0]           st_count_o,
  output logic [31:0]           st_cons_en_o,
  output logic [31:0]           st_expect_o,
  output logic                  st_start_o
);

  localparam logic [31:0] INTRA_MASK = 32'((64'd1 << N_INTRA) - 64'd1);
  localparam logic [31:0] INTER_MASK = 32'((64'd1 << N_INTER) - 64'd1);
  localparam logic [31:0] RST_PORT_EN = INTRA_MASK | (INTER_MASK << PORT_EN_INTER_LSB);
  localparam logic [31:0] NUM_PORTS_VALUE =
      32'(N_INTRA) | (32'(N_INTER) << 8) | (32'(NUM_VCS) << 16) | (32'(DIMS) << 24);

  logic [31:0] coord_q, coord_d;
  logic [31:0] lattice_q, lattice_d;
  logic [31:0] torus_q, torus_d;
  logic [31:0] order_q, order_d;
  logic [31:0] port_en_q, port_en_d;
  logic        arb_fixed_q, arb_fixed_d;
  logic [31:0] credit_period_q, credit_period_d;
  logic [31:0] max_interval_q, max_interval_d;
  logic [31:0] tred_q, tred_d;
  logic [31:0] credit_mode_q, credit_mode_d;
  logic [31:0] phy_ctrl_q, phy_ctrl_d;
  logic [31:0] err_status_q, err_status_d;
  logic [31:0] err_addr_q, err_addr_d;
  logic [31:0] err_count_q, err_count_d;
  logic [31:0] st_gen_en_q, st_gen_en_d;
  logic [31:0] st_pkt_q, st_pkt_d;
  logic [31:0] st_dest_q, st_dest_d;
  logic [31:0] st_count_q, st_count_d;
  logic [31:0] st_cons_en_q, st_cons_en_d;
  logic [31:0] st_expect_q, st_expect_d;
  logic        st_start_q, st_start_d;
  logic [31:0] cycle_q, cycle_d;
  logic        ack_q, ack_d;
  logic [31:0] rdata_q, rdata_d;
  logic        err_q, err_d;

  assign reg_ack_o           = ack_q;
  assign reg_rdata_o         = rdata_q;
  assign reg_err_o           = err_q;
  assign cfg_coord_o         = coord_q;
  assign cfg_lattice_o       = lattice_q;
  assign cfg_torus_o         = torus_q;
  assign cfg_order_o         = order_q;
  assign cfg_port_en_o       = port_en_q;
  assign cfg_arb_fixed_o     = arb_fixed_q;
  assign cfg_credit_period_o = credit_period_q;
  assign cfg_max_interval_o  = max_interval_q;
  assign cfg_tred_o          = tred_q;
  assign cfg_credit_mode_o   = credit_mode_q;
  assign cfg_phy_ctrl_o      = phy_ctrl_q;
  assign st_gen_en_o         = st_gen_en_q;
  assign st_pkt_o            = st_pkt_q;
  assign st_dest_o           = st_dest_q;
  assign st_count_o          = st_count_q;
  assign st_cons_en_o        = st_cons_en_q;
  assign st_expect_o         = st_expect_q;
  assign st_start_o          = st_start_q;

  // Coordinates `co` inside lattice `lat`: every size at least 1, 1 beyond the router's
  // dimensions, every coordinate below its size.
  function automatic logic in_lattice(logic [31:0] lat, logic [31:0] co);
    logic ok;
    ok = 1'b1;
    for (int unsigned k = 0; k < 3; k++) begin
      if (lat[COORD_W*k +: COORD_W] == '0) begin
        ok = 1'b0;
      end
      if (k >= DIMS && lat[COORD_W*k +: COORD_W] != 8'd1) begin
        ok = 1'b0;
      end
      if (co[COORD_W*k +: COORD_W] >= lat[COORD_W*k +: COORD_W]) begin
        ok = 1'b0;
      end
    end
    return ok;
  endfunction

  // The first DIMS positions of a dimension order name every dimension once.
  function automatic logic valid_order(logic [5:0] order);
    logic       ok;
    logic [3:0] seen;
    logic [1:0] o;
    ok   = 1'b1;
    seen = '0;
    for (int unsigned k = 0; k < DIMS; k++) begin
      o = order[ORDER_W*k +: ORDER_W];
      if (32'(o) >= DIMS || seen[o]) begin
        ok = 1'b0;
      end
      seen[o] = 1'b1;
    end
    return ok;
  endfunction

  // Is `v` acceptable for the register at `addr`? (Only registers with constraints.)
  function automatic logic valid(logic [REG_ADDR_W-1:0] addr, logic [31:0] v);
    logic ok;
    unique case (addr)
      REG_COORD:               ok = v[31:24] == '0 && in_lattice(lattice_q, v);
      REG_LATTICE:             ok = v[31:24] == '0 && in_lattice(v, coord_q);
      REG_TORUS:               ok = (v >> DIMS) == '0;
      REG_DIM_ORDER:           ok = v[31:6] == '0 && valid_order(v[5:0]);
      REG_PORT_EN:             ok = (v & ~RST_PORT_EN) == '0;
      REG_ARB_MODE:            ok = v[31:1] == '0;
      REG_CREDIT_PERIOD:       ok = v >= 32'd1 && v <= 32'hFFFF && v <= max_interval_q;
      REG_CREDIT_MAX_INTERVAL: ok = v <= 32'hFFFF && v >= credit_period_q;
      REG_TRED:                ok = v >= 32'd1 && v < 32'(RX_CAPACITY);
      REG_CREDIT_MODE:         ok = v[31:3] == '0;
      REG_PHY_CTRL:            ok = v[31:2] == '0;
      REG_ST_GEN_EN,
      REG_ST_CONS_EN:          ok = (v >> N_INTRA) == '0;
      REG_ST_PKT:              ok = 32'(v[ST_PKT_SIZE_LSB +: ST_PKT_SIZE_W]) <= ST_PKT_MAX_SIZE
                                    && 32'(v[ST_PKT_VC_LSB +: ST_PKT_VC_W]) < NUM_VCS
                                    && v[31:18] == '0;
      REG_ST_DEST:             ok = v[31:27] == '0;
      default:                 ok = 1'b1;
    endcase
    return ok;
  endfunction

  // Global read-only registers the controller itself answers.
  function automatic logic read_only_global(logic [REG_ADDR_W-1:0] addr);
    return addr == REG_ID || addr == REG_ERR_ADDR || addr == REG_ERR_COUNT
        || addr == REG_CYCLE_LO || addr == REG_NUM_PORTS || addr == REG_RSVD_078;
  endfunction

  logic [31:0] err_code;
  logic        rd_hit;
  logic [31:0] rd_value;

  `EXANET_ALWAYS_COMB begin
    coord_d         = coord_q;
    lattice_d       = lattice_q;
    torus_d         = torus_q;
    order_d         = order_q;
    port_en_d       = port_en_q;
    arb_fixed_d     = arb_fixed_q;
    credit_period_d = credit_period_q;
    max_interval_d  = max_interval_q;
    tred_d          = tred_q;
    credit_mode_d   = credit_mode_q;
    phy_ctrl_d      = phy_ctrl_q;
    err_status_d    = err_status_q;
    err_addr_d      = err_addr_q;
    err_count_d     = err_count_q;
    st_gen_en_d     = st_gen_en_q;
    st_pkt_d        = st_pkt_q;
    st_dest_d       = st_dest_q;
    st_count_d      = st_count_q;
    st_cons_en_d    = st_cons_en_q;
    st_expect_d     = st_expect_q;
    cycle_d         = cycle_q + 32'd1;
    ack_d           = reg_wr_i || reg_rd_i;
    err_d           = 1'b0;
    rdata_d         = '0;
    st_start_d      = 1'b0;
    err_code        = '0;
    rd_hit          = 1'b0;
    rd_value        = '0;

    if (reg_wr_i) begin
      unique case (reg_addr_i)
        REG_COORD, REG_LATTICE, REG_TORUS, REG_DIM_ORDER, REG_PORT_EN, REG_ARB_MODE,
        REG_CREDIT_PERIOD, REG_CREDIT_MAX_INTERVAL, REG_TRED, REG_CREDIT_MODE, REG_PHY_CTRL,
        REG_ST_GEN_EN, REG_ST_PKT, REG_ST_DEST, REG_ST_CONS_EN: begin
          if (!valid(reg_addr_i, reg_wdata_i)) begin
            err_code = ERR_BAD_VALUE;
          end else begin
            unique case (reg_addr_i)
              REG_COORD:               coord_d         = reg_wdata_i;
              REG_LATTICE:             lattice_d       = reg_wdata_i;
              REG_TORUS:               torus_d         = reg_wdata_i;
              REG_DIM_ORDER:           order_d         = reg_wdata_i;
              REG_PORT_EN:             port_en_d       = reg_wdata_i;
              REG_ARB_MODE:            arb_fixed_d     = reg_wdata_i[0];
              REG_CREDIT_PERIOD:       credit_period_d = reg_wdata_i;
              REG_CREDIT_MAX_INTERVAL: max_interval_d  = reg_wdata_i;
              REG_TRED:                tred_d          = reg_wdata_i;
              REG_CREDIT_MODE:         credit_mode_d   = reg_wdata_i;
              REG_PHY_CTRL:            phy_ctrl_d      = reg_wdata_i;
              REG_ST_GEN_EN:           st_gen_en_d     = reg_wdata_i;
              REG_ST_PKT:              st_pkt_d        = reg_wdata_i;
              REG_ST_DEST:             st_dest_d       = reg_wdata_i;
              default:                 st_cons_en_d    = reg_wdata_i;
            endcase
          end
        end
        REG_ST_COUNT:  st_count_d  = reg_wdata_i;
        REG_ST_EXPECT: st_expect_d = reg_wdata_i;
        REG_ST_CTRL: begin
          if (st_busy_i && reg_wdata_i[0]) begin
            err_code = ERR_BAD_VALUE;
          end else begin
            st_start_d = reg_wdata_i[0];
          end
        end
        REG_ERR_STATUS: err_status_d = err_status_q & ~reg_wdata_i;
        default: begin
          err_code = (status_hit_i || read_only_global(reg_addr_i)) ? ERR_READ_ONLY
                                                                  : ERR_UNKNOWN_ADDR;
        end
      endcase
    end else if (reg_rd_i) begin
      rd_hit = 1'b1;
      unique case (reg_addr_i)
        REG_ID:                  rd_value = ID_VALUE;
        REG_COORD:               rd_value = coord_q;
        REG_LATTICE:             rd_value = lattice_q;
        REG_TORUS:               rd_value = torus_q;
        REG_DIM_ORDER:           rd_value = order_q;
        REG_PORT_EN:             rd_value = port_en_q;
        REG_ARB_MODE:            rd_value = 32'(arb_fixed_q);
        REG_CREDIT_PERIOD:       rd_value = credit_period_q;
        REG_CREDIT_MAX_INTERVAL: rd_value = max_interval_q;
        REG_TRED:                rd_value = tred_q;
        REG_CREDIT_MODE:         rd_value = credit_mode_q;
        REG_PHY_CTRL:            rd_value = phy_ctrl_q;
        REG_ERR_STATUS:          rd_value = err_status_q;
        REG_ERR_ADDR:            rd_value = err_addr_q;
        REG_ERR_COUNT:           rd_value = err_count_q;
        REG_ST_GEN_EN:           rd_value = st_gen_en_q;
        REG_ST_PKT:              rd_value = st_pkt_q;
        REG_ST_DEST:             rd_value = st_dest_q;
        REG_ST_COUNT:            rd_value = st_count_q;
        REG_ST_CONS_EN:          rd_value = st_cons_en_q;
        REG_ST_EXPECT:           rd_value = st_expect_q;
        REG_ST_CTRL:             rd_value = '0;
        REG_CYCLE_LO:            rd_value = cycle_q;
        REG_NUM_PORTS:           rd_value = NUM_PORTS_VALUE;
        REG_RSVD_078:            rd_value = '0;
        default: begin
          rd_hit   = status_hit_i;
          rd_value = status_rdata_i;
        end
      endcase
      if (rd_hit) begin
        rdata_d = rd_value;
      end else begin
        err_code = ERR_UNKNOWN_ADDR;
      end
    end

    if (err_code != '0) begin
      err_d        = 1'b1;
      err_status_d = err_status_d | err_code;
      err_addr_d   = 32'(reg_addr_i);
      err_count_d  = err_count_q + 32'd1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      coord_q         <= RST_COORD;
      lattice_q       <= RST_LATTICE;
      torus_q         <= RST_TORUS;
      order_q         <= RST_ORDER;
      port_en_q       <= RST_PORT_EN;
      arb_fixed_q     <= RST_ARB_FIXED;
      credit_period_q <= RST_CREDIT_PERIOD;
      max_interval_q  <= RST_MAX_INTERVAL;
      tred_q          <= RST_TRED;
      credit_mode_q   <= RST_CREDIT_MODE;
      phy_ctrl_q      <= RST_PHY_CTRL;
      err_status_q    <= '0;
      err_addr_q      <= '0;
      err_count_q     <= '0;
      st_gen_en_q     <= '0;
      st_pkt_q        <= '0;
      st_dest_q       <= '0;
      st_count_q      <= '0;
      st_cons_en_q    <= '0;
      st_expect_q     <= '0;
      st_start_q      <= 1'b0;
      cycle_q         <= '0;
      ack_q           <= 1'b0;
      rdata_q         <= '0;
      err_q           <= 1'b0;
    end else begin
      coord_q         <= coord_d;
      lattice_q       <= lattice_d;
      torus_q         <= torus_d;
      order_q         <= order_d;
      port_en_q       <= port_en_d;
      arb_fixed_q     <= arb_fixed_d;
      credit_period_q <= credit_period_d;
      max_interval_q  <= max_interval_d;
      tred_q          <= tred_d;
      credit_mode_q   <= credit_mode_d;
      phy_ctrl_q      <= phy_ctrl_d;
      err_status_q    <= err_status_d;
      err_addr_q      <= err_addr_d;
      err_count_q     <= err_count_d;
      st_gen_en_q     <= st_gen_en_d;
      st_pkt_q        <= st_pkt_d;
      st_dest_q       <= st_dest_d;
      st_count_q      <= st_count_d;
      st_cons_en_q    <= st_cons_en_d;
      st_expect_q     <= st_expect_d;
      st_start_q      <= st_start_d;
      cycle_q         <= cycle_d;
      ack_q           <= ack_d;
      rdata_q         <= rdata_d;
      err_q           <= err_d;
    end
  end

`ifdef EXANET_ASSERT
  // The configuration registers only ever hold values the write checks accept.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (valid_order(order_q[5:0]) && order_q[31:6] == '0)
        else $error("exanet_target_ctrl: dimension order is not a permutation");
      assert (in_lattice(lattice_q, coord_q))
        else $error("exanet_target_ctrl: coordinates outside the lattice");
      assert (credit_period_q >= 32'd1 && credit_period_q <= max_interval_q)
        else $error("exanet_target_ctrl: credit period outside 1..max interval");
      assert (tred_q >= 32'd1 && tred_q < 32'(RX_CAPACITY))
        else $error("exanet_target_ctrl: TRED outside 1..RX capacity - 1");
    end
  end
`endif

endmodule
