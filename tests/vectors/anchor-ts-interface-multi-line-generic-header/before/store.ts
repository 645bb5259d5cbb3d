export interface StoreApi<
  T,
  U = T
> {
  setState: (partial: U) => void
  getState: () => T
}

export interface Other<T> {
  getState: () => T
}
