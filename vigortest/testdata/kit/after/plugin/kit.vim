let g:kit_after = exists('g:loaded_kit')
