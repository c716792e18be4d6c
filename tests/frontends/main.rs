//! The protocol front-ends, driven as black boxes through the `tabula` binary: our protocol, GTP
//! as Quarry speaks it, NBoard, Piskvork, CCP, the documented sessions and bad input.

#[path = "../support/common.rs"]
mod common;
#[path = "../support/star.rs"]
mod star;

mod bad_input;
mod new_user_bugs;
mod protocol;
mod protocol_ccp;
mod protocol_chinese_checkers;
mod protocol_docs;
mod protocol_gomoku;
mod protocol_nboard;
mod protocol_piskvork;
mod protocol_quarry;
mod protocol_solve;
