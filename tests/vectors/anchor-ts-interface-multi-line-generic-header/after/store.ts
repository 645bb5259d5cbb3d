export interface StoreApi<
  T,
  U = T
> {
  setState: (partial: U) => void
  getState: () => Readonly<T>
}

export interface Other<T> {
  getState: () => T
}
