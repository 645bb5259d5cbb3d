pub enum State {
  /// see "P" to Closed. 
  Open,
}
