// exanet_base_router_pkg: constants and pure functions of the APErouter (Biagioni 2017 §5.3.3, Pisani 2016
// §2.7.1): the switch gate's states, the routing function and the header size decode.
//
// route() is dimension-order routing with run-time priority registers and the thesis's VC rule:
// for the dimensions in the order of cfg_order, the first whose destination coordinate differs
// from this node's decides the output: on a mesh the direction towards the destination, on a
// torus the shorter way round (a tie goes Plus). The packet leaves by the inter-tile port of that
// dimension and direction (or the port of that dimension marked Both), on VC 1 when the
// destination coordinate is above ours and VC 0 otherwise (VC 0 when there is one VC). When all
// coordinates match, it goes to the intra-tile port its header names (dst_port). A packet that
// cannot be routed is dropped by its gate, with the reason.
//
// The router's structure is passed as function arguments (a package has no parameters); each
// call site passes its module's parameters, so synthesis folds them.
//
// docs/router.md describes the routing function. Model twin: src/router/route.rs (route_to),
// src/router/gate.rs (states, rewrite_header), src/packet/builder.rs (payload_words).

package exanet_base_router_pkg;

  import exanet_base_pkg::*;

  // Largest router the RTL describes: MAX_INTRA as src/router/params.rs; MAX_INTER as the
  // node's register map and router.inter_ports (the Rust model's MAX_INTER is 16, for
  // network-scale runs only).
  localparam bit [31:0] MAX_INTRA = 8;   // intra-tile ports
  localparam bit [31:0] MAX_INTER = 6;   // inter-tile ports
  localparam bit [31:0] MAX_DIMS  = 3;   // coordinates in a header

  // Direction of an inter-tile port along its dimension (2 bits per port in INTER_DIR).
  localparam logic [1:0] DIR_PLUS  = 2'd0;  // towards increasing coordinates
  localparam logic [1:0] DIR_MINUS = 2'd1;  // towards decreasing coordinates
  localparam logic [1:0] DIR_BOTH  = 2'd2;  // the one neighbour of a dimension of size 2

  // Switch gate states (src/router/gate.rs S_*).
  typedef enum logic [2:0] {
    S_IDLE  = 3'd0,  // waiting for a header at the FIFO head
    S_ROUTE = 3'd1,  // routing hdr_q
    S_REQ   = 3'd2,  // raising the request
    S_WAIT  = 3'd3,  // requesting, waiting for the grant
    S_XFER  = 3'd4,  // moving the packet into the crossbar, a word a cycle
    S_EOP   = 3'd5,  // waiting until the footer is written into the output FIFO
    S_DROP  = 3'd6   // reading an unroutable packet out of the FIFO
  } gate_state_e;

  // drop_reason_q codes (src/router/route.rs DropReason).
  localparam logic [1:0] DROP_OUTSIDE_LATTICE = 2'd1;  // a coordinate at or beyond the size
  localparam logic [1:0] DROP_NO_PORT         = 2'd2;  // no enabled port leads that way
  localparam logic [1:0] DROP_BAD_DST_PORT    = 2'd3;  // missing, TX-only or disabled port

  // Words a gate moves: payload words of a packet fit 13 bits in either size mode.
  localparam bit [31:0] WORDS_W = 13;

  // A routing decision.
  typedef struct packed {
    logic       drop;    // the packet cannot be routed
    logic [1:0] reason;  // DROP_*, when drop
    logic [7:0] slot;    // output slot, when !drop
    logic [2:0] vc;      // VC the header carries out, when !drop
  } route_t;

  // Payload words of a packet from its header: 0 for ACK and RATE, else ceil(size/16) in byte
  // mode and size in word mode (all 13 bits, unlike exanet_base_pkg::hdr_payload_words).
  function automatic logic [WORDS_W-1:0] payload_words(logic [WORD_W-1:0] hdr,
                                                       logic size_in_words);
    logic [HDR_TYPE_W-1:0] pkt_type;
    logic [HDR_SIZE_W-1:0] size;
    logic [WORDS_W-1:0]    words;
    logic                  unused_hdr;  // only type and size matter here
    unused_hdr = ^hdr;
    pkt_type   = hdr[HDR_TYPE_LSB +: HDR_TYPE_W];
    size       = hdr[HDR_SIZE_LSB +: HDR_SIZE_W];
    if (pkt_type == TYPE_ACK || pkt_type == TYPE_RATE) begin
      words = '0;
    end else if (size_in_words) begin
      words = WORDS_W'(size);
    end else begin
      words = WORDS_W'((14'(size) + 14'd15) >> 4);
    end
    return words;
  endfunction

  // The header as it leaves by an inter-tile output: the route's VC in bits 2:0, ECC again.
  function automatic logic [WORD_W-1:0] rewrite_header(logic [WORD_W-1:0] hdr, logic [2:0] vc);
    logic unused_bits;  // the VC is replaced, the ECC recomputed
    unused_bits = ^{hdr[WORD_W-1:SECDED_DATA_W], hdr[HDR_VC_LSB +: HDR_VC_W]};
    return secded_encode({hdr[SECDED_DATA_W-1:HDR_VC_LSB+HDR_VC_W], vc});
  endfunction

  // The routing decision for header `hdr`.
  //   Structure (the router's parameters): n_intra intra-tile ports (bit p of intra_rx: port p
  //   has an RX side), n_inter inter-tile ports (port q leads along dimension inter_dim[2q+:2],
  //   way inter_dir[2q+:2]), dims dimensions, num_vcs VCs per inter-tile port.
  //   Run-time registers: coord, size (8 bits per dimension, X lowest), torus (bit per
  //   dimension), order (2 bits per entry, first lowest), intra_en, inter_en.
  // Coordinates are within the lattice (coord < size, checked by the configuration), so the
  // torus distances need no modulo.
  function automatic route_t route(logic [WORD_W-1:0]      hdr,
                                   int unsigned            n_intra,
                                   logic [MAX_INTRA-1:0]   intra_rx,
                                   int unsigned            n_inter,
                                   logic [2*MAX_INTER-1:0] inter_dim,
                                   logic [2*MAX_INTER-1:0] inter_dir,
                                   int unsigned            dims,
                                   int unsigned            num_vcs,
                                   logic [23:0]            coord,
                                   logic [23:0]            size,
                                   logic [2:0]             torus,
                                   logic [5:0]             order,
                                   logic [7:0]             intra_en,
                                   logic [7:0]             inter_en);
    route_t      r;
    logic [23:0] dst;
    logic [2:0]  port;
    logic        done;
    logic        found;
    logic        plus;
    logic [1:0]  dir;
    logic [1:0]  d;
    logic [7:0]  cur;
    logic [7:0]  to;
    logic [7:0]  n;
    logic [8:0]  up;
    logic [8:0]  down;
    logic        wrap;
    logic [2:0]  vc;
    logic        unused_hdr;  // only the destination matters here
    unused_hdr = ^hdr;
    dst   = {hdr[HDR_DST_Z_LSB +: 8], hdr[HDR_DST_Y_LSB +: 8], hdr[HDR_DST_X_LSB +: 8]};
    port  = hdr[HDR_DST_PORT_LSB +: HDR_DST_PORT_W];
    r     = '0;
    done  = 1'b0;
    found = 1'b0;
    plus  = 1'b0;
    dir   = DIR_PLUS;
    cur   = '0;
    to    = '0;
    n     = '0;
    wrap  = 1'b0;
    up    = '0;
    down  = '0;
    vc    = '0;

    for (int unsigned k = 0; k < MAX_DIMS; k++) begin
      if (!done && k < dims && dst[8*k +: 8] >= size[8*k +: 8]) begin
        r.drop   = 1'b1;
        r.reason = DROP_OUTSIDE_LATTICE;
        done     = 1'b1;
      end
    end

    for (int unsigned k = 0; k < MAX_DIMS; k++) begin
      if (!done && k < dims) begin
        d = order[2*k +: 2];
        cur  = '0;
        to   = '0;
        n    = '0;
        wrap = 1'b0;
        for (int unsigned e = 0; e < MAX_DIMS; e++) begin
          if (d == 2'(e)) begin
            cur  = coord[8*e +: 8];
            to   = dst[8*e +: 8];
            n    = size[8*e +: 8];
            wrap = torus[e];
          end
        end
        if (cur != to) begin
          done = 1'b1;
          if (wrap) begin
            up   = (to >= cur) ? 9'(to) - 9'(cur) : 9'(to) + 9'(n) - 9'(cur);
            down = (cur >= to) ? 9'(cur) - 9'(to) : 9'(cur) + 9'(n) - 9'(to);
            plus = up <= down;
          end else begin
            plus = to > cur;
          end
          dir = plus ? DIR_PLUS : DIR_MINUS;
          vc  = (to > cur && num_vcs > 1) ? 3'd1 : 3'd0;
          for (int unsigned q = 0; q < MAX_INTER; q++) begin
            if (!found && q < n_inter && inter_dim[2*q +: 2] == d && inter_en[q] &&
                (inter_dir[2*q +: 2] == dir || inter_dir[2*q +: 2] == DIR_BOTH)) begin
              found  = 1'b1;
              r.slot = 8'(n_intra + q * num_vcs + 32'(vc));
              r.vc   = vc;
            end
          end
          if (!found) begin
            r.drop   = 1'b1;
            r.reason = DROP_NO_PORT;
          end
        end
      end
    end

    if (!done) begin
      if (32'(port) < n_intra && intra_rx[port] && intra_en[port]) begin
        r.slot = 8'(port);
        r.vc   = '0;
      end else begin
        r.drop   = 1'b1;
        r.reason = DROP_BAD_DST_PORT;
      end
    end
    return r;
  endfunction

endpackage
