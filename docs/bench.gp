set terminal pngcairo size 1200,840 font 'sans,10'
set output 'docs/bench.png'
set termoption noenhanced
set multiplot layout 2,2 rowsfirst
set grid ytics
set key top left horizontal
$w0 << EOD
8 613.4 904.9 644.5
64 677.7 967.0 869.8
256 796.6 1185.0 934.5
EOD
$a0 << EOD
1 1.518 1.000 1.430
2 2.533 1.642 2.398
3 2.326 1.538 2.152
4 1.592 1.523 1.968
EOD
$w1 << EOD
8 1518.6 2290.4 1492.2
64 1535.3 2353.5 1502.6
256 1816.0 2725.3 2055.5
EOD
$a1 << EOD
1 0.661 0.450 0.678
2 1.255 0.871 1.352
3 1.335 0.788 1.031
4 1.364 0.880 1.299
EOD
set title 'x86_64: one writer, overwrite, no reader (ns per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:1540.5]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w0 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'x86_64: all CPUs writing, overwrite, 64 bytes (M events/s, higher is better)'
set xlabel 'writer CPUs'
set ylabel 'M events/s'
set yrange [0:3.3]
set style data linespoints
set xtics 1
plot $a0 using 1:2 title 'lrb' lw 2, '' using 1:3 title 'kernel' lw 2, '' using 1:4 title 'locked' lw 2
set title 'arm64: one writer, overwrite, no reader (ns per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:3542.9]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w1 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm64: all CPUs writing, overwrite, 64 bytes (M events/s, higher is better)'
set xlabel 'writer CPUs'
set ylabel 'M events/s'
set yrange [0:1.8]
set style data linespoints
set xtics 1
plot $a1 using 1:2 title 'lrb' lw 2, '' using 1:3 title 'kernel' lw 2, '' using 1:4 title 'locked' lw 2
unset multiplot
