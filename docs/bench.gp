set terminal pngcairo size 1200,840 font 'sans,10'
set output 'docs/bench.png'
set termoption noenhanced
set multiplot layout 2,2 rowsfirst
set grid ytics
set key top left horizontal
$w0 << EOD
8 548.0 1145.0 710.8
64 600.7 972.8 742.4
256 738.5 1188.3 804.0
EOD
$a0 << EOD
1 1.731 1.083 1.631
2 2.205 1.627 2.079
3 2.540 1.715 2.404
4 2.877 1.857 2.572
EOD
$w1 << EOD
8 1145.9 2192.9 1482.9
64 1200.7 2283.7 1436.0
256 1350.2 2460.8 1658.3
EOD
$a1 << EOD
1 0.823 0.395 0.638
2 1.471 0.737 1.186
3 1.725 0.850 1.343
4 1.256 0.691 1.075
EOD
set title 'x86_64: one writer, overwrite, no reader (ns per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:1544.8]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w0 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'x86_64: all CPUs writing, overwrite, 64 bytes (M events/s, higher is better)'
set xlabel 'writer CPUs'
set ylabel 'M events/s'
set yrange [0:3.7]
set style data linespoints
set xtics 1
plot $a0 using 1:2 title 'lrb' lw 2, '' using 1:3 title 'kernel' lw 2, '' using 1:4 title 'locked' lw 2
set title 'arm64: one writer, overwrite, no reader (ns per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:3199.0]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w1 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm64: all CPUs writing, overwrite, 64 bytes (M events/s, higher is better)'
set xlabel 'writer CPUs'
set ylabel 'M events/s'
set yrange [0:2.2]
set style data linespoints
set xtics 1
plot $a1 using 1:2 title 'lrb' lw 2, '' using 1:3 title 'kernel' lw 2, '' using 1:4 title 'locked' lw 2
unset multiplot
