module example.com/kit

go 1.22

require github.com/vigorvim/vigor v0.1.0
