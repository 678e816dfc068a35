module example.com/h5toolchain

go 1.22

toolchain go1.99.0

require github.com/vigorvim/vigor v0.1.0
