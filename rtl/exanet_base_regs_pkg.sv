// exanet_base_regs_pkg: the register map of the Target Controller (Biagioni 2017 §5.4: "a set of
// configuration/status registers is accessible on the same AXI bus through the Target Controller
// IP, which allows the configuration of the router (e.g. setting coordinates and lattice size)
// and the probing of FIFOs and link status").
//
// All registers are 32 bits at byte addresses (12-bit register address). Per-slot status
// registers repeat every SLOT_STRIDE bytes from SLOT_BASE (slot numbering as the router's:
// intra-tile ports, then inter-tile port q VC v); per-link status registers repeat every
// LINK_STRIDE bytes from LINK_BASE. REG_<NAME> is the address of a global register, or the
// offset of a slot or link register in its block; the comment gives its access kind. Meanings
// and fields: docs/registers.md.
//
// Model twin: src/node/regs.rs (REGS). tests/register_map.rs keeps this package, the Rust table
// and docs/registers.md equal.

package exanet_base_regs_pkg;

  // Register address width (reg_addr_i), and the offset of a register in a slot or link block.
  localparam bit [31:0] REG_ADDR_W = 12;
  typedef logic [REG_ADDR_W-1:0] reg_addr_t;
  typedef logic [4:0]            blk_off_t;
  typedef logic [5:0]            link_off_t;

  // Value of ID: 'EXN1'.
  localparam logic [31:0] ID_VALUE = 32'h4558_4E31;

  // Per-slot and per-link status blocks.
  localparam reg_addr_t   SLOT_BASE   = 12'h100;
  localparam reg_addr_t   SLOT_STRIDE = 12'h020;
  localparam bit [31:0] MAX_SLOTS   = 56;
  localparam reg_addr_t   LINK_BASE   = 12'h800;
  localparam reg_addr_t   LINK_STRIDE = 12'h040;
  localparam bit [31:0] MAX_LINKS   = 6;

  // Global registers: byte addresses.
  localparam reg_addr_t REG_ID                  = 12'h000;  // RO
  localparam reg_addr_t REG_COORD               = 12'h004;  // RW
  localparam reg_addr_t REG_LATTICE             = 12'h008;  // RW
  localparam reg_addr_t REG_TORUS               = 12'h00C;  // RW
  localparam reg_addr_t REG_DIM_ORDER           = 12'h010;  // RW
  localparam reg_addr_t REG_PORT_EN             = 12'h014;  // RW
  localparam reg_addr_t REG_ARB_MODE            = 12'h018;  // RW
  localparam reg_addr_t REG_CREDIT_PERIOD       = 12'h01C;  // RW
  localparam reg_addr_t REG_CREDIT_MAX_INTERVAL = 12'h020;  // RW
  localparam reg_addr_t REG_TRED                = 12'h024;  // RW
  localparam reg_addr_t REG_CREDIT_MODE         = 12'h028;  // RW
  localparam reg_addr_t REG_PHY_CTRL            = 12'h02C;  // RW
  localparam reg_addr_t REG_ERR_STATUS          = 12'h030;  // W1C
  localparam reg_addr_t REG_ERR_ADDR            = 12'h034;  // RO
  localparam reg_addr_t REG_ERR_COUNT           = 12'h038;  // RO
  localparam reg_addr_t REG_DROPS               = 12'h03C;  // RO
  localparam reg_addr_t REG_ST_GEN_EN           = 12'h040;  // RW
  localparam reg_addr_t REG_ST_PKT              = 12'h044;  // RW
  localparam reg_addr_t REG_ST_DEST             = 12'h048;  // RW
  localparam reg_addr_t REG_ST_COUNT            = 12'h04C;  // RW
  localparam reg_addr_t REG_ST_CONS_EN          = 12'h050;  // RW
  localparam reg_addr_t REG_ST_EXPECT           = 12'h054;  // RW
  localparam reg_addr_t REG_ST_CTRL             = 12'h058;  // WO
  localparam reg_addr_t REG_PERF_CYCLES         = 12'h05C;  // RO
  localparam reg_addr_t REG_PERF_STATUS         = 12'h060;  // RO
  localparam reg_addr_t REG_ST_CONS_PKTS        = 12'h064;  // RO
  localparam reg_addr_t REG_ST_CONS_WORDS       = 12'h068;  // RO
  localparam reg_addr_t REG_ST_GEN_PKTS         = 12'h06C;  // RO
  localparam reg_addr_t REG_CYCLE_LO            = 12'h070;  // RO
  localparam reg_addr_t REG_IRQ_STATUS          = 12'h074;  // RO
  localparam reg_addr_t REG_RSVD_078            = 12'h078;  // RO
  localparam reg_addr_t REG_NUM_PORTS           = 12'h07C;  // RO

  // Slot block (SLOT_BASE + SLOT_STRIDE * s): offsets in the block.
  localparam blk_off_t  REG_SLOT_IN_PKTS        = 5'h00;  // RO
  localparam blk_off_t  REG_SLOT_IN_WORDS       = 5'h04;  // RO
  localparam blk_off_t  REG_SLOT_IN_DROPS       = 5'h08;  // RO
  localparam blk_off_t  REG_SLOT_IN_FIFO        = 5'h0C;  // RO
  localparam blk_off_t  REG_SLOT_OUT_PKTS       = 5'h10;  // RO
  localparam blk_off_t  REG_SLOT_OUT_WORDS      = 5'h14;  // RO
  localparam blk_off_t  REG_SLOT_OUT_FIFO       = 5'h18;  // RO
  localparam blk_off_t  REG_SLOT_RSVD           = 5'h1C;  // RO

  // Link block (LINK_BASE + LINK_STRIDE * q): offsets in the block.
  localparam link_off_t REG_LINK_STATUS         = 6'h00;  // RO
  localparam link_off_t REG_LINK_ECC_CORR       = 6'h04;  // RO
  localparam link_off_t REG_LINK_ECC_UNCORR     = 6'h08;  // RO
  localparam link_off_t REG_LINK_CRC_ERR        = 6'h0C;  // RO
  localparam link_off_t REG_LINK_STALL          = 6'h10;  // RO
  localparam link_off_t REG_LINK_TX_PKTS        = 6'h14;  // RO
  localparam link_off_t REG_LINK_RX_PKTS        = 6'h18;  // RO
  localparam link_off_t REG_LINK_LOST           = 6'h1C;  // RO
  localparam link_off_t REG_LINK_DISC_HDR       = 6'h20;  // RO
  localparam link_off_t REG_LINK_DISC_FRAMING   = 6'h24;  // RO
  localparam link_off_t REG_LINK_DISC_RESYNC    = 6'h28;  // RO
  localparam link_off_t REG_LINK_DROPPED        = 6'h2C;  // RO
  localparam link_off_t REG_LINK_RSVD_30        = 6'h30;  // RO
  localparam link_off_t REG_LINK_RSVD_34        = 6'h34;  // RO
  localparam link_off_t REG_LINK_RSVD_38        = 6'h38;  // RO
  localparam link_off_t REG_LINK_RSVD_3C        = 6'h3C;  // RO

  // ERR_STATUS bits (the error of an access that is answered with reg_err_o).
  localparam logic [31:0] ERR_UNKNOWN_ADDR = 32'd1;  // no register at the address
  localparam logic [31:0] ERR_BAD_VALUE    = 32'd2;  // value refused (or a start while busy)
  localparam logic [31:0] ERR_READ_ONLY    = 32'd4;  // write to a read-only register

  // Fields: <REG>_<FIELD>_LSB is the field's lowest bit, <REG>_<FIELD>_W its width.
  // COORD, LATTICE, ST_DEST: X [7:0], Y [15:8], Z [23:16].
  localparam bit [31:0] COORD_W                 = 8;
  localparam bit [31:0] ORDER_W                 = 2;   // DIM_ORDER: 2 bits per position
  localparam bit [31:0] PORT_EN_INTRA_LSB       = 0;
  localparam bit [31:0] PORT_EN_INTER_LSB       = 8;
  localparam bit [31:0] CREDIT_MODE_USEDWORD    = 0;   // bit: usedword credits
  localparam bit [31:0] CREDIT_MODE_AFTER_PKT   = 1;   // bit: a credit after every packet
  localparam bit [31:0] CREDIT_MODE_WHOLE_PKT   = 2;   // bit: credit checked only before a packet
  localparam bit [31:0] PHY_CTRL_GEARBOX        = 0;   // bit: gearbox pause
  localparam bit [31:0] PHY_CTRL_CC             = 1;   // bit: clock compensation
  localparam bit [31:0] ST_PKT_SIZE_LSB         = 0;
  localparam bit [31:0] ST_PKT_SIZE_W           = 13;
  localparam bit [31:0] ST_PKT_TYPE_LSB         = 13;
  localparam bit [31:0] ST_PKT_TYPE_W           = 2;
  localparam bit [31:0] ST_PKT_VC_LSB           = 15;
  localparam bit [31:0] ST_PKT_VC_W             = 3;
  localparam bit [31:0] ST_PKT_MAX_SIZE         = 4096;  // bytes (or words)
  localparam bit [31:0] ST_DEST_PORT_LSB        = 24;
  localparam bit [31:0] ST_DEST_PORT_W          = 3;
  localparam bit [31:0] PERF_STATUS_RUNNING     = 0;   // bit
  localparam bit [31:0] PERF_STATUS_DONE        = 1;   // bit
  localparam bit [31:0] SLOT_IN_FIFO_REASON_LSB = 30;  // SLOT_IN_FIFO: last drop reason [31:30]
  localparam bit [31:0] FIFO_LEVEL_HF_LSB       = 16;  // SLOT_*_FIFO: header/footer words
  localparam bit [31:0] LINK_STATUS_LANE_UP     = 0;   // bit: outgoing lane up
  localparam bit [31:0] LINK_STATUS_TX_PKT      = 1;   // bit: the TX is sending a packet

endpackage
