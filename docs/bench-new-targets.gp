set terminal pngcairo size 1800,1260 font 'sans,10'
set output 'docs/bench-new-targets.png'
set termoption noenhanced
set multiplot layout 3,3 rowsfirst
set grid ytics
set key top left horizontal
$w0 << EOD
8 221.9 442.2 271.2
64 296.3 517.1 341.9
256 303.0 527.5 338.5
EOD
$m0 << EOD
8 191.8 412.1 241.1
64 195.9 416.7 241.5
256 209.6 434.1 245.1
EOD
$a0 << EOD
EOD
$w1 << EOD
8 369.7 534.4 266.0
64 431.4 596.6 323.3
256 665.8 822.7 537.8
EOD
$m1 << EOD
8 341.7 506.4 238.0
64 347.1 512.3 239.0
256 388.9 545.8 260.9
EOD
$a1 << EOD
EOD
$w2 << EOD
8 262.3 487.1 204.5
64 279.4 504.5 217.3
256 333.5 556.2 255.4
EOD
$m2 << EOD
8 225.3 450.1 167.5
64 230.4 455.5 168.3
256 249.4 472.1 171.3
EOD
$a2 << EOD
EOD
set title 'riscv64-icount: one writer, overwrite, no reader (instructions per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'instructions per event'
set yrange [0:685.8]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w0 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'riscv64-icount: the same less the loop and the copy (reserve + commit)'
set xlabel 'payload (bytes)'
set ylabel 'instructions per event'
set yrange [0:564.3]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $m0 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set multiplot next
set title 'i386-icount: one writer, overwrite, no reader (instructions per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'instructions per event'
set yrange [0:1069.5]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w1 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'i386-icount: the same less the loop and the copy (reserve + commit)'
set xlabel 'payload (bytes)'
set ylabel 'instructions per event'
set yrange [0:709.5]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $m1 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set multiplot next
set title 'arm-icount: one writer, overwrite, no reader (instructions per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'instructions per event'
set yrange [0:723.1]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w2 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm-icount: the same less the loop and the copy (reserve + commit)'
set xlabel 'payload (bytes)'
set ylabel 'instructions per event'
set yrange [0:613.7]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $m2 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set multiplot next
unset multiplot
