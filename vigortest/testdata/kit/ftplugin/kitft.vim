let b:kit_ftplugin = 1
