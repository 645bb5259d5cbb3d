pub enum State {
  /// state closed. 
  Open,
}
