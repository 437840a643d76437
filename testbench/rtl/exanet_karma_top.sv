// exanet_karma_top: the KARMA test bed (Biagioni 2017 §5.3.1, §5.4, Figure 5.13), testbench only: four
// ExaNet Network IP nodes, one per Trenz board, wired as a 2x2 mesh by their APElinks (one SFP+
// link per neighbour). Node k sits at (x, y) = (k mod 2, k div 2); its inter-tile port 0 leads to
// the X neighbour (node k ^ 1), port 1 to the Y neighbour (node k ^ 2).
//
//   (0,1) gen_node[2] --port 0-- gen_node[3] (1,1)
//     | port 1                     | port 1
//   (0,0) gen_node[0] --port 0-- gen_node[1] (1,0)
//
// The processing-system side of each node (its register interface and intra-tile ports) is
// brought out unchanged, node k's signals at index k (per intra-tile port p: index
// k * N_INTRA + p; per link q: index k * 2 + q), for the emulated ARMs of src/karma/arm.rs. Each
// node's outgoing lane drives its neighbour's link input directly: the lane's output is a
// register, so the wiring adds no combinational path.
//
// Model twin: src/karma/mesh.rs (Mesh). Every node has the default structure of exanet_node and
// resets to its default settings; the software sets the coordinates through the registers.

module exanet_karma_top
  import exanet_base_regs_pkg::*;
#(
  /// Intra-tile ports of each node (the default node's).
  parameter int unsigned N_INTRA = 3
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  reg_wr_i [4],
  input  logic                  reg_rd_i [4],
  input  logic [REG_ADDR_W-1:0] reg_addr_i [4],
  input  logic [31:0]           reg_wdata_i [4],
  output logic                  reg_ack_o [4],
  output logic [31:0]           reg_rdata_o [4],
  output logic                  reg_err_o [4],
  input  logic [N_INTRA-1:0]    ps_wr_hf_i [4],
  input  logic [N_INTRA-1:0]    ps_wr_pay_i [4],
  input  logic [127:0]          ps_wdata_i [4*N_INTRA],
  input  logic [N_INTRA-1:0]    ps_rd_hf_i [4],
  input  logic [N_INTRA-1:0]    ps_rd_pay_i [4],
  output logic [N_INTRA-1:0]    ps_rx_hf_empty_o [4],
  output logic [N_INTRA-1:0]    ps_rx_pay_empty_o [4],
  output logic [127:0]          ps_rx_hf_rdata_o [4*N_INTRA],
  output logic [127:0]          ps_rx_pay_rdata_o [4*N_INTRA],
  input  logic [63:0]           link_err_mask_i [8]
);

  // Every node's outgoing lanes, as their neighbours see them.
  logic [1:0]  lane_valid [4];
  logic [63:0] lane_data [4][2];

  for (genvar k = 0; k < 4; k++) begin : gen_node
    logic [127:0] wdata [N_INTRA];
    logic [127:0] hf_rdata [N_INTRA];
    logic [127:0] pay_rdata [N_INTRA];
    logic [1:0]   in_valid;
    logic [63:0]  in_data [2];
    logic [63:0]  err_mask [2];

    for (genvar p = 0; p < N_INTRA; p++) begin : gen_port
      assign wdata[p]                     = ps_wdata_i[k*N_INTRA+p];
      assign ps_rx_hf_rdata_o[k*N_INTRA+p]  = hf_rdata[p];
      assign ps_rx_pay_rdata_o[k*N_INTRA+p] = pay_rdata[p];
    end
    for (genvar q = 0; q < 2; q++) begin : gen_link
      assign in_valid[q] = lane_valid[k^(1<<q)][q];
      assign in_data[q]  = lane_data[k^(1<<q)][q];
      assign err_mask[q] = link_err_mask_i[k*2+q];
    end

    exanet_node #(
      .N_INTRA (N_INTRA)
    ) u_node (
      .clk_i             (clk_i),
      .rst_ni            (rst_ni),
      .reg_wr_i          (reg_wr_i[k]),
      .reg_rd_i          (reg_rd_i[k]),
      .reg_addr_i        (reg_addr_i[k]),
      .reg_wdata_i       (reg_wdata_i[k]),
      .reg_ack_o         (reg_ack_o[k]),
      .reg_rdata_o       (reg_rdata_o[k]),
      .reg_err_o         (reg_err_o[k]),
      .ps_wr_hf_i        (ps_wr_hf_i[k]),
      .ps_wr_pay_i       (ps_wr_pay_i[k]),
      .ps_wdata_i        (wdata),
      .ps_rd_hf_i        (ps_rd_hf_i[k]),
      .ps_rd_pay_i       (ps_rd_pay_i[k]),
      .ps_tx_hf_usedw_o  (),
      .ps_tx_pay_usedw_o (),
      .ps_rx_hf_empty_o  (ps_rx_hf_empty_o[k]),
      .ps_rx_pay_empty_o (ps_rx_pay_empty_o[k]),
      .ps_rx_hf_rdata_o  (hf_rdata),
      .ps_rx_pay_rdata_o (pay_rdata),
      .link_in_valid_i   (in_valid),
      .link_in_data_i    (in_data),
      .link_err_mask_i   (err_mask),
      .link_out_valid_o  (lane_valid[k]),
      .link_out_data_o   (lane_data[k])
    );
  end

endmodule
