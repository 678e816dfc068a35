" The fixture's commands and mappings, defined as a plugin's README says.
if exists('g:loaded_kit')
  finish
endif
let g:loaded_kit = 1
command! -nargs=1 KitSay call vigor#request('kit', 'say', [<q-args>])
command! -nargs=1 KitEcho echo 'kit: ' . <q-args>
nnoremap <silent> <Plug>(kit-mark) :<C-u>let g:kit_mapped = get(g:, 'kit_mapped', 0) + 1<CR>
if !hasmapto('<Plug>(kit-mark)')
  nmap <Leader>k <Plug>(kit-mark)
endif
